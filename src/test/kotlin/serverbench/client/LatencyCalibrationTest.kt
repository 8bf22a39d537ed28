package serverbench.client

import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import serverbench.app.NoopEndpoints
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind
import kotlin.test.assertTrue

/**
 * The harness's latency and throughput figures against a server whose answer is known: 100 ms without holding a
 * thread, 8 connections. p50 must sit just above 100 ms, and throughput × mean latency must equal the number of
 * connections (Little's law for a closed loop): if either fails, the harness, not the server, is wrong.
 */
class LatencyCalibrationTest {
    @ParameterizedTest
    @EnumSource(ServerKind::class)
    fun `a 100 ms server at concurrency 8 measures as 100 ms and 80 req per s`(kind: ServerKind) {
        ServerFixture.start(kind).use { server ->
            // Warm the same handler path with a 1 ms delay first: at 100 ms a few seconds are only a few hundred
            // requests, and interpreted code would add milliseconds that are the JIT's, not the harness's.
            LoadClient(server.address, 8, Request("/noop/delay?ms=1", NoopEndpoints.DELAYED)).use { warm ->
                warm.start()
                val warmupEnd = System.nanoTime() + 2_000_000_000
                while (System.nanoTime() < warmupEnd) warm.next()
            }
            LoadClient(server.address, 8, Request("/noop/delay?ms=100", NoopEndpoints.DELAYED)).use { client ->
                client.start()
                repeat(8) { client.next() }
                client.beginIteration()
                // A whole number of request cycles (30 per connection, ~3 s): the 8 requests of a cycle complete
                // within microseconds of each other, so a window cut by time would miss up to 7 of the last cycle's.
                repeat(8 * 30) { client.next() }
                val report = client.endIteration()

                val p50 = report.latencyMicros.getValueAtPercentile(50.0) / 1000.0
                val throughput = report.successes / (report.wallNanos / 1e9)
                val little = throughput * (report.latencyMicros.mean / 1e6) / 8
                println("calibration ${kind.id}: p50 %.3f ms, %.1f req/s, little %.4f".format(p50, throughput, little))
                assertTrue(p50 in 100.0..103.0, "${kind.id}: p50 $p50 ms")
                assertTrue(little in 0.95..1.02, "${kind.id}: throughput $throughput req/s × mean latency / 8 = $little")
                assertTrue(report.failures.total == 0L)
            }
        }
    }
}
