package serverbench.jmh

import org.HdrHistogram.Histogram
import org.junit.jupiter.api.Test
import serverbench.client.ClientReport
import serverbench.client.FailureCounts
import kotlin.test.assertEquals
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

class GuardsTest {
    /** One second of a closed loop: [perSecond] successes of [latencyMs] each over [connections] connections. */
    private fun closed(perSecond: Long, latencyMs: Long, connections: Int, clientCpuMs: Long = 100, jvmCpuMs: Long = 500) =
        IterationReport(
            ClientReport(
                latencyMicros = Histogram(3_600_000_000L, 3).apply { recordValueWithCount(latencyMs * 1000, perSecond) },
                successes = perSecond, failures = FailureCounts(), reconnects = 0,
                clientCpuNanos = clientCpuMs * 1_000_000, wallNanos = 1_000_000_000, connections = connections,
            ),
            ResourceReport(processCpuNanos = jvmCpuMs * 1_000_000, allocatedBytes = 0, peakThreads = 10),
        )

    @Test
    fun `Little's law holds when every connection always has one request in flight`() {
        val ok = closed(perSecond = 1000, latencyMs = 10, connections = 10)
        assertEquals(1.0, Guards.littlesLawRatio(ok), 1e-3)
        assertNull(Guards.check(ok, cores = 2)[Guards.LITTLES_LAW])
    }

    @Test
    fun `Little's law outside 0_9 to 1_1 warns`() {
        // 10 connections but only 8 requests' worth in flight: the client was slow to send.
        val slow = closed(perSecond = 800, latencyMs = 10, connections = 10)
        val warning = assertNotNull(Guards.check(slow, cores = 2)[Guards.LITTLES_LAW])
        assertTrue(warning.contains("0.800"), warning)
        assertNotNull(Guards.check(closed(perSecond = 1200, latencyMs = 10, connections = 10), cores = 2)[Guards.LITTLES_LAW])
    }

    @Test
    fun `Little's law is not checked in an iteration shorter than 10 mean latencies`() {
        // 1 s of 200 ms requests: the requests at the window's edges would dominate.
        val short = closed(perSecond = 30, latencyMs = 200, connections = 10)
        assertTrue(Guards.littlesLawRatio(short).isNaN())
        assertNull(Guards.check(short, cores = 2)[Guards.LITTLES_LAW])
    }

    @Test
    fun `a client over half a core on a saturated machine warns, not on an idle one`() {
        val busy = closed(1000, 10, 10, clientCpuMs = 600, jvmCpuMs = 1900)
        assertTrue(Guards.check(busy, cores = 2)[Guards.CLIENT_SATURATED]!!.contains("0.60 cores"))
        assertNull(Guards.check(closed(1000, 10, 10, clientCpuMs = 600, jvmCpuMs = 1000), cores = 2)[Guards.CLIENT_SATURATED])
        assertNull(Guards.check(closed(1000, 10, 10, clientCpuMs = 300, jvmCpuMs = 1950), cores = 2)[Guards.CLIENT_SATURATED])
    }
}
