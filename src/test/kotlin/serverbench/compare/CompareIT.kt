package serverbench.compare

import org.junit.jupiter.api.Test
import serverbench.Full
import serverbench.benchmarks.Jar
import tools.jackson.databind.json.JsonMapper
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** `scripts/compare` end to end on the built jar: real forks of both sides, interleaved, then the verdict files. */
@Full
class CompareIT {
    // These runs check behaviour, not figures: no steady-state warmup, one 1 s iteration a fork.
    private fun compare(vararg args: String): Triple<Int, String, String> =
        Jar.script("compare", *args).let { Triple(it.exitCode, it.stdout, it.stderr) }

    private fun results() = File("jmh-results").listFiles()?.filter {
        it.name.startsWith("compare-")
    }?.toSet().orEmpty()

    @Test
    fun `two sides' forks run interleaved and give one row per metric, in markdown and JSON`() {
        val before = results()
        val (status, out, err) = compare(
            "--mode", "forks", "--forks", "4", "--budget", "0", "--head-args", "-p concurrency=8",
            "NoopBenchmark.hello$", "-p", "server=netty", "-wi", "0", "-i", "1", "-r", "1s",
        )
        val written = results() - before
        try {
            assertEquals(0, status, out + err)
            val order = Regex("""compare: fork \d of 8: (base|head)""").findAll(err).map { it.groupValues[1] }.toList()
            assertEquals(listOf("base", "head", "head", "base", "base", "head", "head", "base"), order, err)
            for (metric in listOf("req/s", "p99", "server CPU/req")) {
                assertTrue(out.contains("| NoopBenchmark.hello | $metric |"), out)
            }
            val dir = written.single { it.isDirectory }
            assertEquals(
                (1..4).flatMap { listOf("base-$it.json", "head-$it.json") }.toSet(),
                dir.list()!!.filter { it.endsWith(".json") }.toSet(),
            )
            val rows = JsonMapper.builder().build().readTree(written.single { it.extension == "json" }.readText())
            assertEquals(
                listOf("score", "latency.p99", "server.cpuPerReq"),
                (0 until rows.size()).map {
                    rows[it]["metric"].asString()
                },
            )
            for (row in (0 until rows.size()).map { rows[it] }) {
                assertTrue(row["significant"].isBoolean, "$row")
                assertEquals(4, row["baseForks"].asInt(), "$row")
                assertTrue(row["base"].asDouble() > 0 && row["head"].asDouble() > 0, "$row")
            }
        } finally {
            written.forEach { it.deleteRecursively() }
        }
    }

    @Test
    fun `a side's bad parameter is refused in one line before either side runs`() {
        val before = results()
        val (status, out, err) = compare("--head-args", "-p connections=8", "NoopBenchmark.hello$")
        assertEquals(2, status, out + err)
        assertTrue(err.contains("-p connections=8: no selected benchmark has a parameter 'connections'"), err)
        assertTrue(err.contains("nothing was started"), err)
        assertEquals(before, results())
    }
}
