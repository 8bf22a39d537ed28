package serverbench.metrics

import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.lang.management.ManagementFactory
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * The warmup's JIT figure is the time its compiler threads were on a CPU or waiting for one: a starved compiler reads
 * busy, an idle one (asleep) reads nothing.
 */
class JitMeterTest {
    private fun task(root: File, tid: Int, name: String, onCpuNanos: Long, waitingNanos: Long = 5_000_000_000) {
        File(root, "$tid").mkdirs()
        File(root, "$tid/comm").writeText("$name\n")
        // schedstat: time on a CPU, time waiting on a run queue, time slices.
        File(root, "$tid/schedstat").writeText("$onCpuNanos $waitingNanos 42\n")
    }

    @Test
    fun `counts compiler threads' CPU and run-queue wait only, a new one from zero, an ended one not at all`(
        @TempDir proc: File,
    ) {
        task(proc, 10, "C2 CompilerThre", 1_000_000_000)
        task(proc, 11, "C1 CompilerThre", 500_000_000)
        task(proc, 12, "http-nio-exec-1", 9_000_000_000)
        task(proc, 13, "C2 CompilerThre", 300_000_000)
        val meter = JitMeter(proc)
        assertTrue(meter.perThread)
        assertEquals("compiler threads' time on or waiting for a CPU", meter.label)
        val before = meter.sample()

        // Thread 10 ran 40 ms and waited 900 ms for a CPU (starved); 11 ran 10 ms; 12 is not a compiler; 13 ended;
        // 14 is new (its whole 7 ms on a CPU and 5 s of wait count).
        task(proc, 10, "C2 CompilerThre", 1_040_000_000, waitingNanos = 5_900_000_000)
        task(proc, 11, "C1 CompilerThre", 510_000_000)
        task(proc, 12, "http-nio-exec-1", 19_000_000_000, waitingNanos = 60_000_000_000)
        File(proc, "13").deleteRecursively()
        task(proc, 14, "JVMCI CompilerT", 7_000_000)
        assertEquals(
            (40_000_000L + 900_000_000) + 10_000_000 + (7_000_000 + 5_000_000_000),
            meter.sample().nanosSince(before),
        )
        // Of it, the run-queue wait alone (what tells a starved compiler from a busy one): 900 ms + 0 + 5 s.
        assertEquals(900_000_000L + 5_000_000_000, meter.sample().waitSince(before))
    }

    @Test
    fun `without per-thread figures it says it reads elapsed compile time`(@TempDir proc: File) {
        task(proc, 12, "http-nio-exec-1", 9_000_000_000)
        val meter = JitMeter(proc)
        assertFalse(meter.perThread)
        assertTrue(meter.label.startsWith("elapsed compile time"), meter.label)
        // The figure is the JVM's elapsed compile time, read between the bean's readings around each sample.
        val bean = ManagementFactory.getCompilationMXBean()
        assumeTrue(bean.isCompilationTimeMonitoringSupported, "no compile time on this JVM")
        val outerStart = bean.totalCompilationTime
        val before = meter.sample()
        val innerStart = bean.totalCompilationTime
        var sink = 0L
        // New code until the JIT has spent a millisecond on it (its figure's unit), within 200 rounds.
        var round = 0
        while (bean.totalCompilationTime == innerStart && round++ < 200) sink += jitWork(round)
        val innerEnd = bean.totalCompilationTime
        val after = meter.sample()
        val outerEnd = bean.totalCompilationTime
        assertTrue(sink != 0L && innerEnd > innerStart, "the JIT compiled nothing in $round rounds")
        val nanos = after.nanosSince(before)
        assertTrue(
            nanos in (innerEnd - innerStart) * 1_000_000..(outerEnd - outerStart) * 1_000_000,
            "$nanos ns; the bean read ${innerEnd - innerStart} to ${outerEnd - outerStart} ms",
        )
        assertEquals(0, before.nanosSince(after), "never negative")
    }

    /** Work over several types, so that each round has something new for C1 and C2. */
    private fun jitWork(round: Int): Long {
        var sum = 0L
        repeat(20_000) { i -> sum += listOf(i, round).map { (it * 31).toString() }.sumOf { it.hashCode().toLong() } }
        return sum
    }

    @Test
    fun `on this JVM it finds the compiler threads and never reads more than their wall time`() {
        assumeTrue(File("/proc/self/task").isDirectory, "Linux only")
        val meter = JitMeter()
        assertTrue(meter.perThread, "no C1/C2 compiler thread found in /proc/self/task")
        val compilers = File("/proc/self/task").listFiles().orEmpty().count {
            JitMeter.isCompiler(runCatching { File(it, "comm").readText().trim() }.getOrDefault(""))
        }
        val wallBefore = System.nanoTime()
        val before = meter.sample()
        // New code to compile: lambdas over several types, hot enough for C1 and C2.
        var sink = 0L
        repeat(200_000) { i -> sink += listOf(i, i + 1).map { it.toString() }.sumOf { it.hashCode().toLong() } }
        val jit = meter.sample().nanosSince(before)
        val wall = System.nanoTime() - wallBefore
        assertTrue(sink != 0L)
        // Each compiler thread is on a CPU or waiting for one at most the whole time (HotSpot may add one meanwhile).
        assertTrue(jit in 0..wall * (compilers + 2), "JIT $jit ns over $wall ns wall, $compilers compiler threads")
    }
}
