package serverbench.hyperfoil

import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.report.Results
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * `scripts/hyperfoil --import all.json <file>`: a Hyperfoil controller's statistics of an exported file (its all.json,
 * laid out as Hyperfoil 0.25.2's JsonWriter writes it) folded into the harness's JSON, engine `hyperfoil-agents`; a
 * run whose SLA failed is refused in one line, as a failed in-VM run is.
 */
class ImportTest {
    private val sizing = HyperfoilYaml.Sizing(warmupSeconds = 3, iterations = 4, iterationSeconds = 1)

    @AfterEach
    fun clear() {
        System.clearProperty(HyperfoilCommand.OUT)
    }

    /** Runs the command with its standard error captured; the status and what it printed there. */
    private fun command(vararg args: String): Pair<Int, String> {
        val err = java.io.ByteArrayOutputStream()
        val saved = System.err
        System.setErr(java.io.PrintStream(err, true))
        try {
            return HyperfoilCommand.run(arrayOf(*args)) to err.toString()
        } finally {
            System.setErr(saved)
        }
    }

    private fun exported(dir: File): File {
        val w = HyperfoilCommand.plan(HyperfoilOptions.parse(listOf("NoopBenchmark", "-p", "server=netty"))).single()
        return File(dir, "${w.fileName}.hf.yaml").apply { writeText(HyperfoilYaml.write(w, "10.0.0.5:8080", sizing)) }
    }

    /** all.json of a run: the measured phase's per-second series (1 s collection period) and its totals. */
    private fun allJson(dir: File, failures: String = ""): File {
        val start = 1_700_000_000_000
        val perSecond = listOf(1000, 3000, 4000, 4000)
        val series = perSecond.mapIndexed { i, n ->
            """{"startTime":${start + i * 1000},"endTime":${start + i * 1000 + 1000},"minResponseTime":100000,""" +
                """"meanResponseTime":2000000,"maxResponseTime":9000000,"percentileResponseTime":{"50.0":1900000},""" +
                """"requestCount":$n,"responseCount":$n,"invalid":0,"connectionErrors":0,"requestTimeouts":0,""" +
                """"internalErrors":0,"blockedTime":0,"extensions":{}}"""
        }
        fun entry(phase: String, warmup: Boolean, total: Int) = """{"name":"$phase","phase":"$phase","iteration":"",
            "fork":"","metric":"request","isWarmup":$warmup,"total":{"phase":"$phase","metric":"request",
            "start":$start,"end":${start + 4000},"summary":{"startTime":$start,"endTime":${start + 4000},
            "minResponseTime":100000,"meanResponseTime":2000000,"maxResponseTime":9000000,"percentileResponseTime":
            {"50.0":1900000,"90.0":2500000,"99.0":4000000,"99.9":7000000,"99.99":9000000},"requestCount":$total,
            "responseCount":$total,"invalid":0,"connectionErrors":0,"requestTimeouts":0,"internalErrors":0,
            "blockedTime":0,"extensions":{}},"failures":0,"minSessions":64,"maxSessions":64},
            "histogram":{"percentiles":[],"linear":[]},"series":[${if (warmup) "" else series.joinToString(",")}]}"""
        return File(dir, "all.json").apply {
            writeText(
                """{"info":{"id":"0001","benchmark":"x","params":{},"cancelled":false,"errors":[]},""" +
                    """"${'$'}schema":"http://hyperfoil.io/run-schema/v3.0","version":"0.25.2",""" +
                    """"failures":[$failures],""" +
                    """"stats":[${entry("measure", false, 12000)},${entry("warmup", true, 500)}],"sessions":[],""" +
                    """"agents":[],"connections":{},"agentCpu":{}}""",
            )
        }
    }

    @Test
    fun `a controller's run of an exported file folds into the results, engine hyperfoil-agents`(@TempDir dir: File) {
        System.setProperty(HyperfoilCommand.OUT, File(dir, "imported").path)
        assertEquals(0 to "", command("--import", allJson(dir).path, exported(dir).path))
        val run = Results.read(File(dir, "imported.json")).single()
        assertEquals("serverbench.benchmarks.NoopBenchmark.hello", run.benchmark)
        assertEquals("hyperfoil-agents", run.engine)
        assertEquals(3000.0, run.primary.score, 1e-9)
        assertEquals(4.0, run.metric("latency.p99")!!.score, 1e-9)
        assertEquals("", run.jdkVersion, "the agents' JDK is not this JVM's")
    }

    @Test
    fun `a run whose SLA failed is not imported, and a file not written here is refused`(@TempDir dir: File) {
        System.setProperty(HyperfoilCommand.OUT, File(dir, "imported").path)
        val failed = allJson(
            dir,
            """{"phase":"measure","metric":"request",""" +
                """"message":"Error ratio exceeded: required 0.000, actual 0.010",""" +
                """"start":0,"end":0,"percentileResponseTime":{}}""",
        )
        val (status, line) = command("--import", failed.path, exported(dir).path)
        assertEquals(1, status)
        assertEquals(1, line.trim().lines().size, line)
        assertTrue(line.startsWith("hyperfoil: FAILED NoopBenchmark.hello (server=netty"), line)
        assertTrue(line.contains("SLA not met in phase measure: Error ratio exceeded"), line)
        assertFalse(File(dir, "imported.json").exists())
        val other = File(dir, "other.hf.yaml").apply { writeText("name: other\n") }
        val (refused, why) = command("--import", failed.path, other.path)
        assertEquals(2, refused)
        assertTrue(why.contains("not a file scripts/hyperfoil wrote"), why)
    }
}
