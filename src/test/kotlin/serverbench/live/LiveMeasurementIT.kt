package serverbench.live

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.profile.ServerProfiles
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * The live engine on real servers: two Netty servers in processes of their own (serve's main class on this test's
 * class path), driven in interleaved windows; then the rows, every window in the CSV, and no process left. These runs
 * check behaviour, not figures: windows of a third of a second, a few blocks.
 */
class LiveMeasurementIT {
    private val target = LiveTarget.of(
        "serverbench.benchmarks.NoopBenchmark.hello",
        mapOf("server" to "netty", "concurrency" to "8"),
        served = false,
    )

    private fun spec(side: String) = LiveMeasurement.Spec(side) {
        listOf(
            File(System.getProperty("java.home"), "bin/java").path,
            "-Xmx256m",
            "-D${LiveServer.EXIT_WITH_PARENT}=true",
            "-cp",
            System.getProperty("java.class.path"),
            LiveServer.SERVE_CLASS,
        ) + target.serveArgs + listOf("--port", "0")
    }

    private val plan = LivePlan(
        pairs = 1, windowNanos = TimeUnit.MILLISECONDS.toNanos(300), settleNanos = TimeUnit.MILLISECONDS.toNanos(100),
        warmupSeconds = 3.0, pauseMillis = 100, calibrationBlocks = 1, minBlocks = 2, precision = 0.0001,
        budgetSeconds = 40.0,
    )

    private fun measurement(
        dir: File,
        err: PrintStream,
        plan: LivePlan = this.plan,
        profiles: ServerProfiles? = null,
    ) = LiveMeasurement(
        mapOf(Side.BASE to spec("base"), Side.HEAD to spec("head")),
        listOf(LiveMeasurement.Config("noop", mapOf(Side.BASE to target, Side.HEAD to target))),
        plan,
        dir,
        err,
        profiles = profiles,
    )

    private fun assertGone(outcome: LiveMeasurement.Outcome) {
        for (line in outcome.servers) {
            val pid = Regex("""pid (\d+)""").find(line)!!.groupValues[1].toLong()
            assertFalse(ProcessHandle.of(pid).map { it.isAlive }.orElse(false), "$line outlived the measurement")
        }
    }

    @Test
    fun `both sides' servers are driven in turn until the budget, every window kept, no process left`(
        @TempDir dir: File,
    ) {
        val err = ByteArrayOutputStream()
        val outcome = measurement(dir, PrintStream(err, true)).run()
        val said = err.toString()
        assertNull(outcome.failure, said)
        assertFalse(outcome.interrupted)
        assertTrue(outcome.stop.contains("--budget"), "${outcome.stop}: $said")
        assertTrue(said.contains("live: 2 servers answer"), said)
        assertTrue(said.contains("calibration, now, over the first 1 block (they count"), said)
        assertEquals(setOf(Side.BASE, Side.HEAD), outcome.windows.map { it.side }.toSet())
        val rows = LiveRow.of("serverbench.benchmarks.NoopBenchmark.hello", emptyMap(), outcome.windows)
        assertEquals(Metrics.COMPARED.map { it.name }, rows.map { it.metric.name })
        val throughput = rows.first()
        assertNotNull(throughput.ratio, said)
        assertTrue(throughput.base > 0 && throughput.head > 0)
        val lines = File(dir, "windows.csv").readLines()
        assertEquals(outcome.windows.size, lines.count { it.startsWith("measure,") })
        // The calibration's blocks are the measurement's first: none is recorded apart, none is dropped.
        assertTrue(lines.any { it.startsWith("warmup,") } && lines.none { it.startsWith("calibration,") })
        assertTrue(outcome.windows.all { (it.value(Metrics.ERRORS) ?: 1.0) == 0.0 })
        assertGone(outcome)
    }

    @Test
    fun `a configuration whose interval is done leaves the rotation, and the others get its windows`(
        @TempDir dir: File,
    ) {
        // The same servers' 20 ms delay on one connection (about 50 req/s) against their hello on eight (thousands): a
        // lead far beyond 5× either way on the busiest machine, told in a few blocks. 5×, not less: after a 3 s
        // warmup one process may still be compiling while the other is not, and under CI's load an A/A was once
        // wholly beyond 1.5× (it left the rotation too).
        val slow = LiveTarget.of(
            "serverbench.benchmarks.DelayBenchmark.delay",
            mapOf("server" to "netty", "concurrency" to "1", "delayMs" to "20"),
            served = false,
        )
        val err = ByteArrayOutputStream()
        val outcome = LiveMeasurement(
            mapOf(Side.BASE to spec("base"), Side.HEAD to spec("head")),
            listOf(
                LiveMeasurement.Config("same", mapOf(Side.BASE to target, Side.HEAD to target)),
                LiveMeasurement.Config("lead", mapOf(Side.BASE to target, Side.HEAD to slow)),
            ),
            plan.copy(decidedBeyond = 5.0),
            dir,
            PrintStream(err, true),
        ).run()
        val said = err.toString()
        assertNull(outcome.failure, said)
        assertTrue(said.contains("live: lead leaves the rotation after"), said)
        assertTrue(said.contains("wholly beyond ×5.000 either way"), said)
        // The A/A's interval never reaches a precision of 0.01 %: it measures to the budget, past the lead's last
        // window.
        assertTrue(outcome.stop.contains("--budget"), "${outcome.stop}: $said")
        val lastRound = { c: Int -> outcome.windows.filter { it.config == c }.maxOf { it.round } }
        assertTrue(lastRound(1) + 2 <= lastRound(0), "lead to round ${lastRound(1)}, same to ${lastRound(0)}")
        assertGone(outcome)
    }

    @Test
    fun `a stop asked from another thread ends after the running window, every window kept`(@TempDir dir: File) {
        val m = measurement(dir, PrintStream(ByteArrayOutputStream(), true))
        val stopper = Thread {
            // Once the measurement proper has windows: the CSV says so.
            val csv = File(dir, "windows.csv")
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
            while (System.nanoTime() < deadline && !(csv.isFile && csv.readLines().any { it.startsWith("measure,") })) {
                Thread.sleep(50)
            }
            m.requestStop()
        }.apply { start() }
        val outcome = m.run()
        stopper.join()
        assertTrue(outcome.interrupted)
        assertEquals("interrupted", outcome.stop)
        assertTrue(outcome.windows.isNotEmpty())
        assertEquals(outcome.windows.size, File(dir, "windows.csv").readLines().count { it.startsWith("measure,") })
        assertTrue(outcome.seconds < plan.budgetSeconds, "stopped at ${outcome.seconds} s")
        assertGone(outcome)
    }

    @Test
    fun `pairs in generations, each generation's servers started after the last one's stop, the interval pooling them`(
        @TempDir dir: File,
    ) {
        val err = ByteArrayOutputStream()
        val outcome = measurement(dir, PrintStream(err, true), plan.copy(pairs = 2, atOnce = 1, budgetSeconds = 60.0))
            .run()
        val said = err.toString()
        assertNull(outcome.failure, said)
        assertTrue(said.contains("live: generation 1 of 2: 2 servers answer"), said)
        assertTrue(said.contains("live: generation 2 of 2: 2 servers answer"), said)
        assertTrue(said.indexOf("share of the --budget is spent") in 0 until said.indexOf("generation 2 of 2"), said)
        assertEquals(4, outcome.servers.size, "${outcome.servers}")
        // The second generation's windows all come after the first one's: its servers were gone by then.
        val pairs = File(dir, "windows.csv").readLines().drop(1).map { it.split(',')[3].toInt() }
        assertEquals(pairs.sorted(), pairs)
        assertEquals(setOf(0, 1), outcome.windows.map { it.pair }.toSet())
        val throughput = LiveRow.of("serverbench.benchmarks.NoopBenchmark.hello", emptyMap(), outcome.windows).first()
        assertEquals(2, throughput.ratio?.pairs, said)
        assertGone(outcome)
    }

    @Test
    fun `-prof flame samples every server once warm, and writes each side's graph and their difference`(
        @TempDir dir: File,
    ) {
        val benchmark = "serverbench.benchmarks.NoopBenchmark.hello"
        val profiles = ServerProfiles("", File(dir, "profiles"), benchmark, mapOf("server" to "netty"))
        val err = ByteArrayOutputStream()
        val outcome = measurement(dir, PrintStream(err, true), plan.copy(budgetSeconds = 30.0), profiles).run()
        val said = err.toString()
        assertNull(outcome.failure, said)
        assertFalse(said.contains("flame:"), said)
        val made = profiles.graphs().map { it.relativeTo(File(dir, "profiles")).path }.toSet()
        assertEquals(
            setOf("base/cpu.html", "base/cpu.collapsed", "head/cpu.html", "head/cpu.collapsed", "cpu-diff.html"),
            made,
        )
        for (side in listOf("base", "head")) {
            val stacks = File(dir, "profiles/$side/cpu.collapsed").readLines()
            // The request handling itself, not only the event loop's polling; and no load client (it runs here).
            assertTrue(stacks.any { it.contains("reactor/netty/http/server") }, "$side: ${stacks.take(10)}")
            assertTrue(stacks.none { it.contains("serverbench/client") }, "$side: the load client's frames")
            assertEquals(stacks, File(dir, "profiles/$side-0/cpu.collapsed").readLines(), "one process a side")
            assertTrue(File(dir, "profiles/$side/cpu.html").length() > 10_000)
            assertTrue(File(dir, "profiles/$side/cpu.txt").readText().contains("from the end of warmup"))
        }
        assertTrue(File(dir, "profiles/cpu-diff.html").length() > 10_000)
        assertGone(outcome)
    }
}
