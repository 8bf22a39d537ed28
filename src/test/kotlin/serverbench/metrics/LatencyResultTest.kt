package serverbench.metrics

import org.HdrHistogram.Histogram
import org.junit.jupiter.api.Test
import org.openjdk.jmh.results.BenchmarkResult
import org.openjdk.jmh.results.IterationResult
import org.openjdk.jmh.results.Result
import org.openjdk.jmh.results.ResultRole
import org.openjdk.jmh.results.RunResult
import org.openjdk.jmh.results.ThroughputResult
import serverbench.client.FailureCounts
import serverbench.client.FailureKind
import serverbench.client.LoadClient
import serverbench.testing.clientReport
import java.io.ByteArrayInputStream
import java.io.ByteArrayOutputStream
import java.io.ObjectInputStream
import java.io.ObjectOutputStream
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

class LatencyResultTest {
    private fun histogram(vararg msAndCount: Pair<Double, Long>) =
        Histogram(LoadClient.HIGHEST_TRACKABLE_MICROS, 3).apply {
            for ((ms, n) in msAndCount) recordValueWithCount((ms * 1000).toLong(), n)
        }

    private fun iteration(vararg results: Result<*>) = IterationResult(null, null, null).apply {
        addResult(ThroughputResult(ResultRole.PRIMARY, "ops", 1000.0, 1000, TimeUnit.SECONDS))
        results.forEach { addResult(it) }
    }

    private fun report(h: Histogram, failures: FailureCounts = FailureCounts(), resources: ResourceReport? = null) =
        IterationReport(clientReport(h, failures = failures), resources)

    @Test
    fun `percentiles of several iterations are those of all their requests, not an average`() {
        val fast = iteration(LatencyResult(histogram(1.0 to 1000)))
        val slow = iteration(LatencyResult(histogram(100.0 to 1000)))
        val merged = BenchmarkResult(null, listOf(fast, slow)).secondaryResults

        assertEquals(1.0, merged.getValue("latency.p50").score, 0.01)
        // The average of per-iteration p90s would be 50.5.
        assertEquals(100.0, merged.getValue("latency.p90").score, 0.1)
        assertEquals(100.0, merged.getValue("latency.max").score, 0.1)
        assertEquals(50.5, merged.getValue("latency.mean").score, 0.1)
        assertEquals(2000, merged.getValue("latency.mean").sampleCount)

        // From three iterations on, a percentile has an interval (the range of its per-iteration values, see below).
        val middle = iteration(LatencyResult(histogram(50.0 to 1000)))
        val three = BenchmarkResult(null, listOf(fast, slow, middle)).secondaryResults
        assertEquals(100.0, three.getValue("latency.p90").score, 0.1)
        assertTrue(three.getValue("latency.p90").scoreError > 0)
        assertTrue(merged.getValue("latency.p90").scoreError.isNaN(), "JMH gives no interval for two values")
    }

    /** Five iterations of 1000 requests: 990 at 1 ms and 10 in a tail at [tails] ms (one value per iteration). */
    private fun tailed(vararg tails: Double) =
        BenchmarkResult(null, tails.map { iteration(LatencyResult(histogram(1.0 to 990, it to 10))) }).secondaryResults

    @Test
    fun `a percentile's interval is the range of its per-iteration values, which holds the merged figure`() {
        val p999 = tailed(10.0, 10.1, 10.2, 10.3, 10.4).getValue("latency.p99.9")
        assertEquals(10.4, p999.score, 0.02) // the 4995th of 5000 requests
        val (low, high) = p999.scoreConfidence.toList()
        assertEquals(10.0, low, 0.01)
        assertEquals(10.4, high, 0.01)
        assertEquals(maxOf(p999.score - low, high - p999.score), p999.scoreError, 1e-9)
        // Not JMH's "±(99.9%)": the line says what the interval is and the coverage 5 iterations give it.
        val line = p999.extendedInfo()
        assertTrue(line.contains("range of 5 iterations [") && line.contains("holds their median with 93.8 %"), line)
        assertFalse(line.contains("99.9%"), line)
    }

    @Test
    fun `one iteration's long tail stretches the range upwards only, and the max has no interval`() {
        val r = tailed(10.0, 10.0, 10.0, 10.0, 500.0)
        val p = r.getValue("latency.p99.9")
        assertEquals(500.0, p.score, 0.5) // that iteration's 10 requests are the top 10 of 5000
        val (low, high) = p.scoreConfidence.toList()
        assertTrue(low <= 10.01 && high in 500.0..500.5, "[$low, $high]")
        assertEquals(p.score - low, p.scoreError, 1e-9)
        // The largest request is the top of any range of maxima by construction: no interval can be claimed for it.
        val max = r.getValue("latency.max")
        assertEquals(500.0, max.score, 0.5)
        assertTrue(max.scoreError.isNaN(), "${max.scoreError}")
        assertEquals(listOf(max.score, max.score), max.scoreConfidence.toList())
        // The mean keeps the usual interval of the per-iteration means.
        assertTrue(r.getValue("latency.mean").scoreError > 0)
    }

    @Test
    fun `forks merge the same way as iterations`() {
        val fork1 = BenchmarkResult(null, listOf(iteration(LatencyResult(histogram(2.0 to 90)))))
        val fork2 = BenchmarkResult(null, listOf(iteration(LatencyResult(histogram(2.0 to 9, 50.0 to 1)))))
        val run = RunResult(null, listOf(fork1, fork2)).aggregatedResult.secondaryResults
        assertEquals(2.0, run.getValue("latency.p99").score, 0.01)
        assertEquals(50.0, run.getValue("latency.p99.9").score, 0.1)
        assertEquals(100, run.getValue("latency.mean").sampleCount)
    }

    @Test
    fun `a single iteration reports its own percentiles without an error`() {
        val h = histogram(*(1..100).map { it.toDouble() to 1L }.toTypedArray())
        val r = BenchmarkResult(null, listOf(iteration(LatencyResult(h)))).secondaryResults
        assertEquals(50.0, r.getValue("latency.p50").score, 0.1)
        assertEquals(90.0, r.getValue("latency.p90").score, 0.1)
        assertEquals(99.0, r.getValue("latency.p99").score, 0.1)
        assertEquals(100.0, r.getValue("latency.p99.9").score, 0.1)
        assertTrue(r.getValue("latency.p99").scoreError.isNaN())
        assertEquals(
            listOf("latency.max", "latency.mean", "latency.p50", "latency.p90", "latency.p99", "latency.p99.9"),
            r.keys.filter { it.startsWith("latency") }.sorted(),
        )
    }

    @Test
    fun `the open loop's uncorrected latency has its own labels, merged like the corrected one`() {
        val uncorrected = LatencyResult.UNCORRECTED_PREFIX
        val it1 = iteration(LatencyResult(histogram(1.0 to 90)), LatencyResult(histogram(1.0 to 90), uncorrected))
        val it2 = iteration(LatencyResult(histogram(900.0 to 10)), LatencyResult(histogram(2.0 to 10), uncorrected))
        val r = BenchmarkResult(null, listOf(it1, it2)).secondaryResults
        assertEquals(900.0, r.getValue("latency.p99").score, 1.0)
        assertEquals(2.0, r.getValue("latency.uncorrected.p99").score, 0.01)
        assertEquals(100, r.getValue("latency.uncorrected.mean").sampleCount)
        assertEquals(
            listOf(
                "latency.uncorrected.max",
                "latency.uncorrected.mean",
                "latency.uncorrected.p50",
                "latency.uncorrected.p90",
                "latency.uncorrected.p99",
                "latency.uncorrected.p99.9",
            ),
            r.keys.filter { it.startsWith("latency.uncorrected") }.sorted(),
        )
    }

    @Test
    fun `the result survives serialization from the fork to the host`() {
        val original = LatencyResult(histogram(3.0 to 10, 7.0 to 10))
        val bytes = ByteArrayOutputStream()
            .also { ObjectOutputStream(it).use { o -> o.writeObject(original) } }
            .toByteArray()
        val copy = ObjectInputStream(ByteArrayInputStream(bytes)).use { it.readObject() } as LatencyResult
        assertEquals(original.score, copy.score)
        assertEquals(original.statistics.getPercentile(75.0), copy.statistics.getPercentile(75.0))
        assertEquals(20, copy.sampleCount)
        assertTrue(bytes.size < 4096, "serialized size ${bytes.size}")
    }

    @Test
    fun `profiler results carry errors by kind, summed over iterations, and client CPU averaged`() {
        val failures = FailureCounts().apply {
            add(FailureKind.TIMEOUT, "a")
            add(FailureKind.TIMEOUT, "b")
            add(FailureKind.NON_2XX, "c")
        }
        val it1 = iteration(*LoadMetricsProfiler.results(report(histogram(1.0 to 10), failures)).toTypedArray())
        val it2 = iteration(*LoadMetricsProfiler.results(report(histogram(1.0 to 10))).toTypedArray())
        val r = BenchmarkResult(null, listOf(it1, it2)).secondaryResults
        assertEquals(3.0, r.getValue("errors").score)
        assertEquals(2.0, r.getValue("errors.timeout").score)
        assertEquals(1.0, r.getValue("errors.non_2xx").score)
        assertEquals(0.5, r.getValue("client.cpu").score, 1e-9)
        assertEquals(50_000.0, r.getValue("client.cpuPerReq").score, 1e-6) // (2 × 0.5 s CPU) / (2 × 10 requests), in µs
    }

    /** An iteration of [requests] at 1 ms whose JVM used [cpuMs] of CPU and had the other figures at its end. */
    private fun measured(requests: Long, cpuMs: Long, allocated: Long, threads: Int, fds: Long, heapMb: Long) =
        iteration(
            *LoadMetricsProfiler.results(
                report(
                    histogram(1.0 to requests),
                    resources = ResourceReport(
                        cpuMs * 1_000_000,
                        allocated,
                        threads,
                        openFds = fds,
                        heapAfterGcBytes = heapMb shl 20,
                    ),
                ),
            ).toTypedArray(),
        )

    @Test
    fun `server resources are the JVM's minus the client's, per request over all iterations`() {
        val r = BenchmarkResult(
            null,
            listOf(measured(1000, 1_500, 4_000_000, 40, 90, 50), measured(3000, 2_500, 8_000_000, 55, 80, 40)),
        ).secondaryResults
        // server CPU = process CPU - client CPU (0.5 s each): 1.0 s + 2.0 s over 2 s of wall time, and over 4000
        // requests
        assertEquals(1.5, r.getValue("server.cpu").score, 1e-9)
        assertEquals(3000.0 / 4000, r.getValue("server.cpuPerReq").score, 1e-9) // ms
        assertEquals(12_000_000.0 / 4000, r.getValue("heap.allocPerReq").score, 1e-9)
        assertEquals(55.0, r.getValue("threads.peak").score)
        assertEquals(90.0, r.getValue("fds.open").score)
        assertEquals(50.0, r.getValue("heap.afterGc").score, 1e-9)
    }

    @Test
    fun `client CPU per request is total CPU over total requests, not an average of iteration ratios`() {
        val busy = iteration(*LoadMetricsProfiler.results(report(histogram(1.0 to 1000))).toTypedArray())
        val idle = iteration(*LoadMetricsProfiler.results(report(histogram())).toTypedArray()) // no request at all
        val r = BenchmarkResult(null, listOf(busy, idle)).secondaryResults
        assertEquals(1e6 / 1000, r.getValue("client.cpuPerReq").score, 1e-6) // 1 s CPU over 1000 requests
        assertEquals(0.5, r.getValue("client.cpu").score, 1e-9)
    }
}
