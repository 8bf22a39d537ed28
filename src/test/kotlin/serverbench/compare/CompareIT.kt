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

    /** A live comparison sized for a test: windows of a third of a second, a short warmup and budget. */
    private val quickLive = arrayOf(
        "--pairs", "1", "--window", "0.3s", "--warmup", "3s", "--budget", "40s", "--head-args", "-p concurrency=8",
        "--base-args", "-p concurrency=8", "NoopBenchmark.hello$", "-p", "server=netty",
    )

    @Test
    fun `by default both sides' servers run at once and one row per metric comes from their interleaved windows`() {
        val before = results()
        val (status, out, err) = compare(*quickLive)
        val written = results() - before
        try {
            assertEquals(0, status, out + err)
            assertTrue(err.contains("live: 2 servers answer"), err)
            assertTrue(err.contains("calibration, now"), err)
            for (metric in listOf("req/s", "server CPU/req", "p50", "p99")) {
                assertTrue(out.contains("| NoopBenchmark.hello | $metric |"), out)
            }
            assertTrue(out.contains("interleaved 0.30 s windows"), out)
            val rows = JsonMapper.builder().build().readTree(written.single { it.extension == "json" }.readText())
            assertEquals(
                listOf("score", "server.cpuPerReq", "latency.p50", "latency.p99"),
                (0 until rows.size()).map { rows[it]["metric"].asString() },
            )
            val dir = written.single { it.isDirectory }
            assertTrue(File(dir, "live-1/windows.csv").readLines().size > 10)
            assertNoneAlive(err)
        } finally {
            written.forEach { it.deleteRecursively() }
        }
    }

    @Test
    fun `Ctrl-C keeps every window, says the verdict so far in one line and leaves no server`() {
        val before = results()
        val log = File.createTempFile("compare-live", ".log")
        val process = ProcessBuilder(
            listOf("setsid", "bash", "scripts/compare") + quickLive.toList().let {
                // A longer budget: the interrupt, not the budget, ends it.
                it.map { a -> if (a == "40s") "5m" else a }
            },
        ).redirectErrorStream(true).redirectOutput(log).start()
        try {
            val deadline = System.nanoTime() + 120_000_000_000L
            while (System.nanoTime() < deadline && !log.readText().contains("calibration, now")) Thread.sleep(200)
            Thread.sleep(3000)
            ProcessBuilder("kill", "-INT", "--", "-${process.pid()}").start().waitFor()
            assertTrue(process.waitFor(2, java.util.concurrent.TimeUnit.MINUTES), log.readText())
            val said = log.readText()
            assertTrue(said.contains("compare: interrupted: stopping after the running window"), said)
            assertTrue(said.contains("compare: interrupted; the verdict so far: hello: req/s head ÷ base"), said)
            val written = results() - before
            assertTrue(written.any { it.extension == "json" } && written.any { it.extension == "md" }, "$written")
            assertNoneAlive(said)
        } finally {
            if (process.isAlive) serverbench.testing.killWithDescendants(process)
            (results() - before).forEach { it.deleteRecursively() }
            log.delete()
        }
    }

    /** Every server the run named ("base-0 pid N") has exited. */
    private fun assertNoneAlive(said: String) {
        val pids = Regex("""(?:base|head)-\d+ pid (\d+)""").findAll(said).map { it.groupValues[1].toLong() }.toList()
        assertTrue(pids.isNotEmpty(), said)
        for (pid in pids) {
            val alive = (1..50).any { _ ->
                val up = ProcessHandle.of(pid).map { it.isAlive }.orElse(false)
                if (up) Thread.sleep(200)
                !up
            }.not()
            assertTrue(!alive, "server pid $pid outlived compare:\n$said")
        }
    }
}
