package serverbench.client

import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import serverbench.app.BlockingIoEndpoints
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind
import kotlin.test.assertTrue

/**
 * The harness's latency and throughput figures against a server whose answer is known: 100 ms, 8 connections. p50 can
 * never be below 100 ms, and throughput × mean latency must equal the number of connections (Little's law for a closed
 * loop): if either fails, the harness, not the server, is wrong. How far above 100 ms p50 sits is the machine's
 * scheduling as much as the harness's (other processes on a busy 2-core machine add milliseconds): that is measured
 * by `DelayBenchmark` (docs/calibration.md), and here bounded only loosely. Each stack waits the way that costs it
 * least, so the figure is the harness's: Tomcat and Jetty sleep on a worker thread (8 of 200), Netty uses a timer (a
 * sleep would hold one of its few event loops). The handler path is warmed first with 1 ms waits: at 100 ms a few
 * seconds are only a few hundred requests, and interpreted code would add milliseconds that are the JIT's, not the
 * harness's.
 */
class LatencyCalibrationTest {
    @ParameterizedTest
    @EnumSource(ServerKind::class)
    fun `a 100 ms server at concurrency 8 measures as 100 ms and 80 req per s`(kind: ServerKind) {
        val path = if (kind == ServerKind.NETTY) "/blocking/nonBlocking" else "/blocking/direct"
        ServerFixture.start(kind).use { server ->
            LoadClient(server.address, 8, Request("$path?ms=1", BlockingIoEndpoints.DONE)).use { warm ->
                warm.start()
                val warmupEnd = System.nanoTime() + 4_000_000_000
                while (System.nanoTime() < warmupEnd) warm.next()
            }
            LoadClient(server.address, 8, Request("$path?ms=100", BlockingIoEndpoints.DONE)).use { client ->
                client.start()
                repeat(8) { client.next() }
                client.beginIteration()
                // A whole number of request cycles (30 per connection, ~3 s): the 8 requests of a cycle complete
                // within microseconds of each other, so a window cut by time would miss up to 7 of the last cycle's.
                repeat(8 * 30) { client.next() }
                val report = client.endIteration()
                // The last 8 requests are still sleeping on Tomcat's workers: stopping the server now would interrupt
                // them, each an InterruptedException logged at ERROR.
                client.drain()

                val p50 = report.latencyMicros.getValueAtPercentile(50.0) / 1000.0
                val throughput = report.successes / (report.wallNanos / 1e9)
                val little = throughput * (report.latencyMicros.mean / 1e6) / 8
                val figures = "p50 %.3f ms, %.1f req/s, little %.4f".format(p50, throughput, little)
                println("calibration ${kind.id} $path: $figures")
                // Below, what the code guarantees: no response before its 100 ms, no more than 8 in flight (1.02: the
                // window's edges). Above, a busy machine adds its scheduling delays to each cycle, so the bounds only
                // tell a broken measurement (a latency counted twice, connections idle for whole cycles) from it.
                assertTrue(p50 in 100.0..200.0, "${kind.id}: p50 $p50 ms")
                assertTrue(
                    little in 0.80..1.02,
                    "${kind.id}: throughput $throughput req/s × mean latency / 8 = " +
                        "$little",
                )
                assertTrue(report.failures.total == 0L)
            }
        }
    }
}
