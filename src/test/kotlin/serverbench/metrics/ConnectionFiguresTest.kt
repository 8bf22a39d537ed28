package serverbench.metrics

import org.junit.jupiter.api.Test
import org.openjdk.jmh.results.BenchmarkResult
import org.openjdk.jmh.results.IterationResult
import org.openjdk.jmh.results.ResultRole
import org.openjdk.jmh.results.ThroughputResult
import serverbench.client.Handshakes
import serverbench.testing.clientReport
import serverbench.testing.latencies
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFalse

/**
 * Per-second and per-request figures pooled over a run's measured iterations: connections and TLS handshakes per
 * second over all of them (an iteration that opened none counts its time too), and the client's whole process CPU
 * (with a target elsewhere) beside its threads' CPU.
 */
class ConnectionFiguresTest {
    /** One second of [requests] at 1 ms, with [handshakes], the client's threads at 0.5 s of CPU. */
    private fun iteration(requests: Long, handshakes: Handshakes, resources: ResourceReport? = null): IterationResult {
        val client = clientReport(latencies(1000L to requests), handshakes = handshakes)
        return IterationResult(null, null, null).apply {
            addResult(ThroughputResult(ResultRole.PRIMARY, "ops", 1000.0, 1000, TimeUnit.SECONDS))
            LoadMetricsProfiler.results(IterationReport(client, resources)).forEach { addResult(it) }
        }
    }

    @Test
    fun `connections and handshakes per second are over every measured iteration, not only those that had one`() {
        val reconnected = iteration(1000, Handshakes(connects = 10, tlsFull = 2, tlsResumed = 8))
        val kept = iteration(1000, Handshakes())
        val r = BenchmarkResult(null, listOf(reconnected, kept, kept)).secondaryResults
        assertEquals(10.0 / 3, r.getValue(ConnectionFigures.CONNECTS).score, 1e-9)
        assertEquals(2.0 / 3, r.getValue(ConnectionFigures.TLS_FULL).score, 1e-9)
        assertEquals(8.0 / 3, r.getValue(ConnectionFigures.TLS_RESUMED).score, 1e-9)
    }

    @Test
    fun `a target's run reports the client's whole process CPU beside its threads', in process neither`() {
        val remote = ResourceReport(
            processCpuNanos = 3_000_000_000,
            allocatedBytes = -1,
            peakThreads = 20,
            remoteServer = "127.0.0.1:8080",
            clientProcessCpuNanos = 700_000_000,
        )
        val r = BenchmarkResult(null, listOf(iteration(1000, Handshakes(), remote))).secondaryResults
        assertEquals(0.7, r.getValue("client.processCpu").score, 1e-9)
        assertEquals(700.0, r.getValue("client.processCpuPerReq").score, 1e-9) // 0.7 s over 1000 requests, in µs
        assertEquals(500.0, r.getValue("client.cpuPerReq").score, 1e-9) // the client's threads alone
        val local = ResourceReport(processCpuNanos = 3_000_000_000, allocatedBytes = -1, peakThreads = 20)
        val inProcess = BenchmarkResult(null, listOf(iteration(1000, Handshakes(), local))).secondaryResults
        assertFalse("client.processCpu" in inProcess, "in process the JVM is the server's too")
    }
}
