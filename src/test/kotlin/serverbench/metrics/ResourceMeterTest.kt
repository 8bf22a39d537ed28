package serverbench.metrics

import org.junit.jupiter.api.Test
import serverbench.testing.clientReport
import serverbench.testing.latencies
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue

class ResourceMeterTest {
    private fun allocateOnAThreadThatEnds() = Thread { ByteArray(8 shl 20).also { it[0] = 1 } }.apply {
        start()
        join()
    }

    @Test
    fun `a thread that ended during the iteration still counts (HotSpot's total allocated bytes)`() {
        val meter = ResourceMeter()
        meter.begin()
        allocateOnAThreadThatEnds()
        val report = meter.end()
        assertNull(report.allocLowerBound, "exact: no flag")
        assertTrue(report.allocatedBytes >= 8 shl 20, "allocated ${report.allocatedBytes}")
    }

    @Test
    fun `threads that are not the server's (the proxy's downstream stub) are measured apart`() {
        val go = java.util.concurrent.CountDownLatch(1)
        val spun = java.util.concurrent.CountDownLatch(1)
        val release = java.util.concurrent.CountDownLatch(1)
        val kept = java.util.concurrent.atomic.AtomicReference<ByteArray>()
        // Alive for the whole measurement, as the stub's event loops are for a whole trial.
        val stub = Thread({
            go.await()
            // 200 ms of its own CPU, not of wall time: on a busy machine a thread gets less than a core.
            val cpu = java.lang.management.ManagementFactory.getThreadMXBean()
            val end = cpu.currentThreadCpuTime + 200_000_000
            var x = 0L
            while (cpu.currentThreadCpuTime < end) x += x xor 7
            kept.set(ByteArray(8 shl 20).also { it[0] = x.toByte() })
            spun.countDown()
            release.await()
        }, "downstream-stub-9-1").apply { start() }
        val meter = ResourceMeter(outside = { it.startsWith("downstream-stub") })
        val unaware = ResourceMeter()
        meter.begin()
        unaware.begin()
        go.countDown()
        spun.await()
        val report = meter.end()
        val before = unaware.end()
        release.countDown()
        stub.join()
        assertTrue(report.outsideCpuNanos >= 100_000_000, "stub CPU ${report.outsideCpuNanos}")
        // The process's CPU comes from times(), in clock ticks (10 ms), a thread's from its own clock, exact.
        assertTrue(
            report.outsideCpuNanos <= report.processCpuNanos + 20_000_000,
            "within the process's: ${report.outsideCpuNanos} of ${report.processCpuNanos} ns",
        )
        assertTrue(report.outsideAllocatedBytes >= 8 shl 20, "stub allocations ${report.outsideAllocatedBytes}")
        assertEquals(0, before.outsideCpuNanos, "a meter told of no outside threads bills them to the server")
    }

    @Test
    fun `the server's CPU and allocations leave out the client's thread and the outside threads`() {
        val client = clientReport(latencies(1000L to 1000L), clientCpuNanos = 100_000_000, connections = 1)
        val resources = ResourceReport(
            processCpuNanos = 1_000_000_000,
            allocatedBytes = 1_000_000,
            peakThreads = 10,
            outsideCpuNanos = 400_000_000,
            outsideAllocatedBytes = 400_000,
        )
        val results = LoadMetricsProfiler.results(IterationReport(client, resources)).associateBy { it.label }
        assertEquals(0.5, results.getValue("server.cpu").score, 1e-9)
        assertEquals(600.0, results.getValue("heap.allocPerReq").score, 1e-9)
    }

    @Test
    fun `counting live threads only, the figure is flagged a lower bound when threads came and went`() {
        val meter = ResourceMeter(useTotal = false)
        meter.begin()
        allocateOnAThreadThatEnds()
        assertEquals(true, meter.end().allocLowerBound)
    }

    @Test
    fun `GC pause time is a figure in-process, as from a target`() {
        val meter = ResourceMeter()
        meter.begin()
        System.gc()
        // A collection may well take under a millisecond: what matters is a figure (0 or more), not -1.
        assertTrue(meter.end().gcPauseNanos >= 0)
    }
}
