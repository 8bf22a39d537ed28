package serverbench.benchmarks

import org.junit.jupiter.api.Test
import serverbench.Full
import serverbench.testing.deleteResults
import tools.jackson.databind.json.JsonMapper
import java.nio.file.Files
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * The JSON family through the jar: it measures on every stack with its bytes per request, skips `mono` on MVC stacks
 * in one line, and a server answering a wrong JSON body fails the run with the invalid body line.
 */
@Full
class JsonIT {
    private val tiny = arrayOf("-f", "1", "-wi", "0", "-i", "2", "-r", "1s")

    @Test
    fun `each stack decodes and answers the order, with bytes in and out per request, mono on WebFlux only`() {
        val json = Files.createTempFile("json", ".json").toFile()
        try {
            val run = Jar.run(
                "JsonBenchmark.(direct|mono)$", "-p", "bodyBytes=1024,16384", "-p", "concurrency=8", *tiny,
                "-rf", "json", "-rff", json.path,
            )
            assertEquals(0, run.exitCode, run.toString())
            assertTrue(
                run.stdout.contains("serverbench: skipped 2 runs of JsonBenchmark.mono on tomcat: a Mono<Order>"),
                run.stdout,
            )
            val results = JsonMapper.builder().build().readTree(json)
            val rows = (0 until results.size()).map { results[it] }
            val seen = rows.map {
                "${it["benchmark"].asString().substringAfterLast('.')}/${it["params"]["server"].asString()}/" +
                    it["params"]["bodyBytes"].asString()
            }
            val expected = listOf("direct/netty", "direct/tomcat", "mono/netty")
                .flatMap { listOf("$it/1024", "$it/16384") }
            assertEquals(expected.sorted(), seen.sorted())
            for (row in rows) {
                val secondary = row["secondaryMetrics"]
                assertTrue(row["primaryMetric"]["score"].asDouble() > 0, row.toString())
                assertEquals(0.0, secondary["errors"]["score"].asDouble(), row.toString())
                val size = row["params"]["bodyBytes"].asString().toInt()
                val bytesIn = secondary["bytes.inPerReq"]["score"].asDouble()
                val bytesOut = secondary["bytes.outPerReq"]["score"].asDouble()
                // The order within bodyBytes plus a head of ~100 bytes; the summary about half of it.
                assertTrue(bytesIn > size - 120 && bytesIn < size + 200, "in $bytesIn for $size")
                assertTrue(bytesOut > size * 0.4 && bytesOut < size * 0.7, "out $bytesOut for $size")
                assertTrue(secondary.has("server.cpuPerReq") && secondary.has("heap.allocPerReq"), row.toString())
            }
        } finally {
            deleteResults(json)
        }
    }

    @Test
    fun `a wrong JSON answer fails the run with the invalid body line on every stack`() {
        val run = Jar.run("SelfCheckBenchmark.jsonWrongBody", "-p", "concurrency=4", *tiny)
        assertEquals(1, run.exitCode, run.toString())
        val summary = run.stderr.lines().single { it.startsWith("serverbench: ") && it.contains("runs failed") }
        assertTrue(summary.startsWith("serverbench: 2 of 2 benchmark runs failed"), summary)
        for (server in listOf("netty", "tomcat")) {
            assertTrue(
                Regex(
                    "SelfCheckBenchmark\\.jsonWrongBody \\(server=$server[^)]*\\): \\d+ failed requests?: " +
                        "\\d+ invalid body; first: POST /fault/jsonWrongTotal \\(\\d+-byte body\\) on ",
                ).containsMatchIn(summary),
                summary,
            )
        }
    }
}
