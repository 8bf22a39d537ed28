package serverbench.metrics

import serverbench.fixture.ActuatorEndpoint
import serverbench.metrics.ActuatorResources.Companion.ALLOCATED
import serverbench.metrics.ActuatorResources.Companion.CPU
import serverbench.metrics.ActuatorResources.Companion.GC_PAUSE
import serverbench.metrics.ActuatorResources.Companion.LIVE_THREADS
import serverbench.metrics.ActuatorResources.Companion.PEAK_THREADS
import serverbench.testing.clientReport
import serverbench.testing.latencies
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith

class ActuatorResourcesTest {
    @Test
    fun `an iteration's figures are the differences of the meters`() {
        val from = snapshot(cpuSeconds = 10.0, allocated = 1e9, live = 30, peak = 41, pauses = 0.5)
        val to = snapshot(cpuSeconds = 12.5, allocated = 3e9, live = 35, peak = 41, pauses = 0.75)
        val report = ActuatorResources.report(from, to, remoteServer = "target 127.0.0.1:8080")
        assertEquals(2_500_000_000, report.processCpuNanos)
        assertEquals(2_000_000_000, report.allocatedBytes)
        assertEquals(250_000_000, report.gcPauseNanos)
        // The peak since the start did not move: the live threads at both ends, a lower bound.
        assertEquals(35, report.peakThreads)
        assertEquals("target 127.0.0.1:8080", report.remoteServer)
        assertEquals(-1, report.openFds)
        assertEquals(-1, report.heapAfterGcBytes)
        assertEquals(-1, report.inFlightMax)
    }

    @Test
    fun `a peak reached within the iteration is its peak`() {
        val from = snapshot(live = 30, peak = 41)
        val to = snapshot(live = 35, peak = 60)
        assertEquals(60, ActuatorResources.report(from, to, remoteServer = "t").peakThreads)
    }

    @Test
    fun `an absent meter is -1, never a 0`() {
        val none = ActuatorResources.snapshot { null }
        val report = ActuatorResources.report(none, none, remoteServer = "t")
        assertEquals(-1, report.processCpuNanos)
        assertEquals(-1, report.allocatedBytes)
        assertEquals(-1, report.peakThreads)
        assertEquals(-1, report.gcPauseNanos)
        // One end without: still no figure.
        val some = snapshot(cpuSeconds = 3.0, allocated = 5e8, live = 3, peak = 4, pauses = 0.1)
        val half = ActuatorResources.report(none, some, remoteServer = "t")
        assertEquals(-1, half.processCpuNanos)
        assertEquals(-1, half.allocatedBytes)
        assertEquals(-1, half.gcPauseNanos)
    }

    @Test
    fun `no collection within the iteration is no allocation figure, and no pause yet is 0 pause time`() {
        // jvm.gc.pause exists from the first pause on; the GC binder's jvm.gc.memory.allocated from the start.
        val from = snapshot(allocated = 0.0, pauses = null)
        val to = snapshot(allocated = 0.0, pauses = null)
        val report = ActuatorResources.report(from, to, remoteServer = "t")
        assertEquals(-1, report.allocatedBytes)
        assertEquals(0, report.gcPauseNanos)
    }

    @Test
    fun `a meter in an unexpected unit is refused, not misread`() {
        val wrong = reading(CPU, "widgets", "COUNT" to 1.0)
        assertFailsWith<IllegalArgumentException> { ActuatorResources.snapshot { if (it == CPU) wrong else null } }
        val kib = reading(ALLOCATED, "kibibytes", "COUNT" to 1.0)
        assertFailsWith<IllegalArgumentException> { ActuatorResources.snapshot { if (it == ALLOCATED) kib else null } }
    }

    @Test
    fun `absent figures are not published, present ones are`() {
        val none = ActuatorResources.snapshot { null }
        val absent = IterationResults.of(iteration(ActuatorResources.report(none, none, remoteServer = "t")))
            .map { it.label }
        for (metric in listOf(MetricCatalogue.GC_PAUSE, MetricCatalogue.THREADS_PEAK, MetricCatalogue.SERVER_CPU)) {
            assertEquals(false, metric.name in absent, metric.name)
        }
        val from = snapshot(cpuSeconds = 1.0, allocated = 1e6, live = 10, peak = 10, pauses = 0.0)
        val to = snapshot(cpuSeconds = 2.0, allocated = 2e6, live = 12, peak = 12, pauses = 0.01)
        val present = IterationResults.of(iteration(ActuatorResources.report(from, to, remoteServer = "t")))
            .associateBy { it.label }
        // 10 ms of pauses over an iteration of 1 s of wall.
        assertEquals(10.0, present.getValue(MetricCatalogue.GC_PAUSE.name).score, 1e-9)
        assertEquals(12.0, present.getValue(MetricCatalogue.THREADS_PEAK.name).score)
    }

    private fun iteration(resources: ResourceReport) =
        IterationReport(clientReport(latencies(1_000L to 100L)), resources)

    private fun snapshot(
        cpuSeconds: Double? = null,
        allocated: Double? = null,
        live: Int? = null,
        peak: Int? = null,
        pauses: Double? = null,
    ): ActuatorResources.Snapshot {
        val readings = mapOf(
            CPU to cpuSeconds?.let { reading(CPU, "ns", "COUNT" to it * 1e9) },
            ALLOCATED to allocated?.let { reading(ALLOCATED, "bytes", "COUNT" to it) },
            LIVE_THREADS to live?.let { reading(LIVE_THREADS, "threads", "VALUE" to it.toDouble()) },
            PEAK_THREADS to peak?.let { reading(PEAK_THREADS, "threads", "VALUE" to it.toDouble()) },
            GC_PAUSE to pauses?.let { reading(GC_PAUSE, "seconds", "COUNT" to 3.0, "TOTAL_TIME" to it) },
        )
        return ActuatorResources.snapshot { readings[it] }
    }

    private fun reading(name: String, unit: String, vararg statistics: Pair<String, Double>) =
        ActuatorEndpoint.Reading(name, unit, statistics.toMap())
}
