package serverbench.metrics

import org.junit.jupiter.api.Test
import serverbench.testing.clientReport
import serverbench.testing.latencies
import kotlin.test.assertEquals
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

class GuardsTest {
    /** One second of a closed loop: [perSecond] successes of [latencyMs] each over [connections] connections. */
    private fun closed(
        perSecond: Long,
        latencyMs: Long,
        connections: Int,
        clientCpuMs: Long = 100,
        jvmCpuMs: Long = 500,
        machineBusy: Double = Double.NaN,
    ) = IterationReport(
        clientReport(
            latencies(latencyMs * 1000 to perSecond),
            clientCpuNanos = clientCpuMs * 1_000_000,
            connections = connections,
        ),
        ResourceReport(
            processCpuNanos = jvmCpuMs * 1_000_000,
            allocatedBytes = 0,
            peakThreads = 10,
            machineBusy = machineBusy,
        ),
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
        assertNotNull(
            Guards.check(closed(perSecond = 1200, latencyMs = 10, connections = 10), cores = 2)[Guards.LITTLES_LAW],
        )
    }

    @Test
    fun `a saturated client's line names the fix that fits the machine, more threads or a host for the server`() {
        val spare = closed(perSecond = 1000, latencyMs = 10, connections = 10, clientCpuMs = 950, machineBusy = 0.6)
        val more = assertNotNull(Guards.check(spare, cores = 16)[Guards.CLIENT_SATURATED])
        assertTrue(more.endsWith("(more client threads: -p clientThreads=2)"), more)
        val full = closed(perSecond = 1000, latencyMs = 10, connections = 10, clientCpuMs = 950, machineBusy = 0.97)
        val host = assertNotNull(Guards.check(full, cores = 2)[Guards.CLIENT_SATURATED])
        assertTrue(host.contains("97 % busy") && host.contains("-Dserverbench.target"), host)
        assertTrue("clientThreads" !in host, host)
    }

    @Test
    fun `a client near its own quota (-Dserverbench clientCpus) is the bottleneck, one well below it is not`() {
        fun under(quota: Double, clientCpuMs: Long) = closed(1000, 10, 10, clientCpuMs = clientCpuMs).let {
            IterationReport(it.client, it.resources, budget = BudgetReport(null, null, clientCpus = quota))
        }
        val line = assertNotNull(Guards.clientBottleneck(under(0.2, clientCpuMs = 195)))
        assertTrue(line.contains("0.20 cores of its quota of 0.2 (-Dserverbench.clientCpus)"), line)
        assertNull(Guards.clientBottleneck(under(0.2, clientCpuMs = 120)))
        // Without a quota the same 0.195 cores is far from a core.
        assertNull(Guards.clientBottleneck(closed(1000, 10, 10, clientCpuMs = 195)))
    }

    @Test
    fun `with a saturated client, Little's law names that cause once instead of blaming the server`() {
        // A client thread at 0.95 of a core and 0.8 requests in flight per connection: they waited in the client.
        val saturated = closed(perSecond = 800, latencyMs = 10, connections = 10, clientCpuMs = 950)
        val guards = Guards.check(saturated, cores = 2)
        assertNotNull(guards[Guards.CLIENT_SATURATED])
        val warning = assertNotNull(guards[Guards.LITTLES_LAW])
        assertTrue(warning.contains("0.800") && warning.contains("the load client is saturated"), warning)
        assertTrue("requests spent time the latency does not show" !in warning, warning)
        // Without saturation the general causes stay.
        val unsaturated = closed(perSecond = 800, latencyMs = 10, connections = 10)
        val slow = assertNotNull(Guards.check(unsaturated, cores = 2)[Guards.LITTLES_LAW])
        assertTrue(slow.contains("requests spent time the latency does not show"), slow)
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
        // Saturation is the machine's (all processes), not this JVM's: another process's load counts.
        val busy = closed(1000, 10, 10, clientCpuMs = 600, jvmCpuMs = 1000, machineBusy = 0.95)
        assertTrue(Guards.check(busy, cores = 2)[Guards.CLIENT_SATURATED]!!.contains("0.60 cores"))
        assertNull(
            Guards.check(
                closed(1000, 10, 10, clientCpuMs = 600, jvmCpuMs = 1900, machineBusy = 0.6),
                cores = 2,
            )[Guards.CLIENT_SATURATED],
        )
        assertNull(
            Guards.check(
                closed(1000, 10, 10, clientCpuMs = 300, machineBusy = 0.99),
                cores = 2,
            )[Guards.CLIENT_SATURATED],
        )
    }

    @Test
    fun `a client thread near a whole core warns on any machine`() {
        // 8 cores, the JVM using 3: the old rule (JVM >= 90 % of the cores) could never fire here.
        val pegged = closed(1000, 10, 10, clientCpuMs = 950, jvmCpuMs = 3000, machineBusy = 0.4)
        assertTrue(Guards.check(pegged, cores = 8)[Guards.CLIENT_SATURATED]!!.contains("0.95 of a core"))
    }

    @Test
    fun `machine CPU is read from proc stat's busy and idle jiffies`() {
        val from = MachineCpu.parse(listOf(100, 0, 50, 800, 50, 0, 0, 0, 0, 0))
        val to = MachineCpu.parse(listOf(280, 0, 110, 840, 50, 10, 0, 0, 0, 0))
        assertEquals(250.0 / 290, MachineCpu.busyShare(from, to), 1e-9)
        assertTrue(MachineCpu.busyShare(null, to).isNaN())
    }

    @Test
    fun `Little's law pools over the iterations where it is defined`() {
        // JMH pads a label missing from an iteration with its zero result; an average with those zeros read 0.6 for
        // 1.0 when 2 of 5 iterations were too short to define it.
        val defined = (1..3).map {
            LoadMetricsProfiler.results(closed(1000, 10, 10)).single { it.label == "littlesLaw" }
        }
        assertTrue(LoadMetricsProfiler.results(closed(30, 200, 10)).none { it.label == "littlesLaw" })
        // As JMH's BenchmarkResult does (both methods are protected there).
        fun call(name: String) = org.openjdk.jmh.results.Result::class.java.getDeclaredMethod(name)
            .apply { isAccessible = true }.invoke(defined[0])
        val padded = defined + List(2) { call("getZeroResult") as org.openjdk.jmh.results.Result<*>? }.filterNotNull()

        @Suppress("UNCHECKED_CAST")
        val aggregator = call(
            "getIterationAggregator",
        ) as org.openjdk.jmh.results.Aggregator<org.openjdk.jmh.results.Result<*>>
        assertEquals(1.0, aggregator.aggregate(padded).score, 1e-3)
    }

    @Test
    fun `warning_notSteady is written only with a verdict, never for too few iterations`() {
        fun flag(verdict: Steadiness.Verdict?): Double? {
            val base = closed(perSecond = 1000, latencyMs = 10, connections = 10)
            val last = IterationReport(base.client, base.resources, lastMeasurement = true, steadiness = verdict)
            return LoadMetricsProfiler.results(last).singleOrNull { it.label == "warning.${Guards.NOT_STEADY}" }?.score
        }
        assertEquals(0.0, flag(Steadiness.judge(List(5) { 1000.0 })))
        assertEquals(1.0, flag(Steadiness.judge(listOf(1000.0, 2000.0, 3000.0, 4000.0, 5000.0))))
        // 0 would read as steady and 1 as not; three iterations are neither.
        assertNull(flag(Steadiness.judge(listOf(1000.0, 1100.0, 1200.0))))
    }
}
