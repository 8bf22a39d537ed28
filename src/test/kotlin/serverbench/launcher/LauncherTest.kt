package serverbench.launcher

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.metrics.RunFiles
import serverbench.profile.FlameProfiler
import serverbench.profile.ProfileLayout
import tools.jackson.databind.json.JsonMapper
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** Bad input is refused by the launcher in one line, exit status 2, before anything is planned, run or written. */
class LauncherTest {
    private fun launch(vararg args: String): Pair<Int, String> {
        val err = ByteArrayOutputStream()
        val saved = System.err
        System.setErr(PrintStream(err, true, Charsets.UTF_8))
        try {
            return Launcher.run(arrayOf(*args)) to err.toString(Charsets.UTF_8).trim()
        } finally {
            System.setErr(saved)
        }
    }

    private val why = "the score is successful requests/s (throughput); " +
        "latency is in latency.* (every request, HdrHistogram)"

    @Test
    fun `every benchmark mode but throughput is refused, naming the option and what is allowed`() {
        // The pattern matches nothing: the mode must be refused first, before the benchmarks are even listed.
        for (mode in listOf("avgt", "sample", "ss", "all")) {
            assertEquals(
                2 to "serverbench: -bm $mode is not supported: $why; only -bm thrpt",
                launch("NoSuchBenchmarkAnywhere", "-bm", mode),
            )
        }
        assertEquals(
            2 to "serverbench: -bm avgt is not supported: $why; only -bm thrpt",
            launch("NoSuchBenchmarkAnywhere", "-bm", "thrpt,avgt"),
        )
        // A real benchmark with a refused mode: exit 2 at once, nothing runs.
        assertEquals(2, launch("NoopBenchmark", "-bm", "avgt", "-p", "server=netty").first)
    }

    @Test
    fun `with no benchmark named, a team's jar runs the team's own benchmarks and says how to run the built-in ones`() {
        val all = listOf(
            "com.example.orders.bench.OrdersServiceBenchmark.createOrder",
            "com.example.orders.bench.OrdersServiceBenchmark.readOrder",
            "serverbench.benchmarks.CpuBenchmark.direct",
            "serverbench.benchmarks.NoopBenchmark.hello",
        )
        val own = Launcher.ownBenchmarks(emptyList(), all)
        assertEquals(all.take(2), own)
        assertEquals(
            "serverbench: no benchmark named: running this project's own (OrdersServiceBenchmark); serverbench's " +
                "built-in benchmarks in this jar run when named (e.g. NoopBenchmark), -l lists them all",
            Launcher.ownBenchmarksNotice(own),
        )
        // Named ones run as named, built-in or not; serverbench's own jar runs all of its own as JMH does.
        assertEquals(emptyList(), Launcher.ownBenchmarks(listOf("Noop"), all))
        assertEquals(emptyList(), Launcher.ownBenchmarks(emptyList(), all.drop(2)))
    }

    @Test
    fun `throughput, JMH's own mode for these benchmarks, is accepted`() {
        val (status, err) = launch("NoSuchBenchmarkAnywhere", "-bm", "thrpt")
        assertEquals(2, status)
        assertEquals(true, err.startsWith("No benchmark matches"), err)
    }

    @Test
    fun `forks' flame profiler is told the session, so each session's graphs have a directory of their own`(
        @TempDir dir: File,
    ) {
        val flame = FlameProfiler::class.java.name
        assertEquals(
            listOf("Cpu", "-prof", "$flame:session=S", "-prof", "gc"),
            Launcher.withProfilerAliases(arrayOf("Cpu", "-prof", "flame", "-prof", "gc"), "S").toList(),
        )
        assertEquals(
            listOf("-prof", "$flame:event=wall;session=S"),
            Launcher.withProfilerAliases(arrayOf("-prof", "flame:event=wall"), "S").toList(),
        )
        assertEquals(
            listOf("-prof", "$flame:event=wall"),
            Launcher.withProfilerAliases(arrayOf("-prof", "flame:event=wall")).toList(),
        )
        // A target's JVM: the forks attach to its pid.
        assertEquals(
            listOf("-prof", "$flame:event=wall;session=S;pid=42"),
            Launcher.withProfilerAliases(arrayOf("-prof", "flame:event=wall"), "S", 42L).toList(),
        )
        val now = java.time.Instant.parse("2024-01-02T09:00:00Z")
        val first = ProfileLayout.newSession(dir, now)
        val second = ProfileLayout.newSession(dir, now)
        assertEquals("$first-2", second)
        assertTrue(File(dir, first).isDirectory && File(dir, second).isDirectory)
    }

    @Test
    fun `the result file lists each run's profiles and files in its own entry, and only where it made some`() {
        val jmh = """[{"benchmark": "a", "primaryMetric": {"score": "NaN"}},
            {"benchmark": "b", "primaryMetric": {"score": 2.5}}]"""
        val fields = mapOf(
            ProfileLayout.FIELD to listOf(listOf("../p/a.html", "../p/a.collapsed"), emptyList()),
            RunFiles.FIELD to listOf(emptyList(), listOf("r/b/latency-pid1.hlog")),
        )
        val written = ResultFiles.withFields(jmh, fields)
        val tree = JsonMapper.builder().build().readTree(written)
        val listed = tree[0][ProfileLayout.FIELD]
        assertEquals(listOf("../p/a.html", "../p/a.collapsed"), (0 until listed.size()).map { listed[it].asString() })
        assertFalse(tree[1].has(ProfileLayout.FIELD))
        assertFalse(tree[0].has(RunFiles.FIELD))
        assertEquals("r/b/latency-pid1.hlog", tree[1][RunFiles.FIELD][0].asString())
        assertEquals("NaN", tree[0]["primaryMetric"]["score"].asString())
        assertEquals(2.5, tree[1]["primaryMetric"]["score"].asDouble())
    }

    @Test
    fun `a pattern that matches nothing gets the benchmarks it probably meant`() {
        val all = listOf(
            "CpuBenchmark.direct",
            "CpuBenchmark.completableFuture",
            "NoopBenchmark.hello",
            "BlockingIoBenchmark.direct",
            "SelfCheckBenchmark.status500",
        ).map { "serverbench.benchmarks.$it" }
        assertEquals(" Did you mean 'CpuBenchmark.direct'?", Launcher.suggestion(listOf("Cpu.direct"), all))
        assertEquals(" Did you mean 'CpuBenchmark.direct'?", Launcher.suggestion(listOf("CpuBenchmark.dirct"), all))
        assertEquals(
            " Did you mean 'CpuBenchmark.completableFuture'?",
            Launcher.suggestion(listOf("completableFutur"), all),
        )
        assertEquals(" Did you mean 'NoopBenchmark.hello'?", Launcher.suggestion(listOf("NopBenchmark.hello"), all))
        assertEquals("", Launcher.suggestion(listOf("Database"), all))
    }
}
