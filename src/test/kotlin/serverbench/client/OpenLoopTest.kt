package serverbench.client

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import serverbench.app.NoopEndpoints
import serverbench.app.ServerProbe
import serverbench.metrics.Guards
import serverbench.metrics.IterationReport
import java.time.Duration
import kotlin.test.assertEquals
import kotlin.test.assertNotNull
import kotlin.test.assertTrue

/**
 * The open loop against a real server (WebFlux on Netty): it keeps to its schedule, and its corrected latency shows a
 * server stall that a closed loop hides (coordinated omission, as wrk2 and HdrHistogram describe it).
 */
class OpenLoopTest : NettyServerTest() {
    /** The stall hook lives in the server probe's filter, which is off by default. */
    override val serverProperties: Map<String, Any> get() = mapOf(ServerProbe.PROPERTY to "true")

    private val delay10 = Request("/noop/delay?ms=10", NoopEndpoints.DELAYED)

    /** Runs one iteration of [seconds]; [during] is called before each request with the seconds elapsed. */
    private fun LoadClient.iteration(seconds: Double, during: (Double) -> Unit = {}): ClientReport {
        beginIteration()
        val started = System.nanoTime()
        while (true) {
            val elapsed = (System.nanoTime() - started) / 1e9
            if (elapsed >= seconds) break
            during(elapsed)
            next()
        }
        return endIteration()
    }

    private fun ms(micros: Long) = micros / 1000.0

    /**
     * Behaviour, not speed: the assertions hold on a busy machine too. How late sends were and how fast the server
     * answered depend on the machine, and the benchmarks' `behindSchedule` guard reports them; what must hold anywhere
     * is that the schedule's arithmetic is kept and that connections are opened only for requests that waited.
     */
    @Test
    fun `keeps to its schedule and opens only the connections it needs`() {
        LoadClient(
            server.address,
            50,
            delay10,
            ClientSettings(timeout = Duration.ofSeconds(5)),
            rate = 200.0,
        ).use { c ->
            c.start()
            val warm = c.iteration(1.0)
            val r = c.iteration(3.0)
            assertEquals(0, r.failures.total)
            assertEquals(0, r.dropped)
            // Every request whose time came went out (late if all capped connections were busy): 200/s of the window.
            val due = 200 * r.wallNanos / 1e9
            if (!r.capReached) {
                assertTrue(kotlin.math.abs(r.scheduled - due) <= 2, "sent ${r.scheduled} of $due due")
            } else {
                assertTrue(r.late > 0, "a request that found all connections busy is late")
            }
            // Answered: those sent, give or take the requests in flight at the window's edges (at most the cap).
            assertTrue(kotlin.math.abs(r.successes - r.scheduled) <= 50, "${r.successes} answered, ${r.scheduled} sent")
            // Requests in flight at once were all due within the longest (corrected) latency; a connection is opened
            // only for a request that waited, plus one spare and those still connecting.
            val longest = maxOf(warm.latencyMicros.maxValue, r.latencyMicros.maxValue) / 1e6
            val needed = kotlin.math.ceil(200 * longest).toInt() + 3
            assertTrue(r.maxConnections <= minOf(needed, 50), "connections ${r.maxConnections}, at most $needed needed")
            val uncorrected = assertNotNull(r.uncorrectedLatencyMicros)
            assertEquals(r.successes, uncorrected.totalCount)
            assertTrue(ms(r.latencyMicros.getValueAtPercentile(50.0)) >= 10.0, "the endpoint waits 10 ms")
            assertTrue(r.latencyMicros.getValueAtPercentile(50.0) >= uncorrected.getValueAtPercentile(50.0))
        }
    }

    @Test
    fun `a server stall shows in the corrected latency and not in the closed loop's`() {
        // 100 req/s against a 10 ms endpoint, 10 s measured, the server frozen for 2 s in the middle. Open loop: the
        // ~200 requests due during the stall wait for it (corrected), but only the few on the capped connections were
        // sent into it (uncorrected). Closed loop at the same nominal load (1 connection × 10 ms): one request waits 2
        // s, and the client sends nothing else meanwhile, so its percentiles never see the stall.
        val open = LoadClient(
            server.address,
            4,
            delay10,
            ClientSettings(timeout = Duration.ofSeconds(10)),
            rate = 100.0,
        ).use { c ->
            c.start()
            c.iteration(1.0)
            stalledIteration(c)
        }
        val closed = LoadClient(server.address, 1, delay10, ClientSettings(timeout = Duration.ofSeconds(10))).use { c ->
            c.start()
            c.iteration(1.0)
            stalledIteration(c)
        }
        val openP99 = ms(open.latencyMicros.getValueAtPercentile(99.0))
        val uncorrectedP99 = ms(open.uncorrectedLatencyMicros!!.getValueAtPercentile(99.0))
        val closedP99 = ms(closed.latencyMicros.getValueAtPercentile(99.0))
        println(
            (
                "stall test: open loop 100 req/s: corrected p50 %.1f p99 %.1f max %.1f ms; uncorrected p50 %.1f " +
                    "p99 %.1f ms; late %d; closed loop c=1: p50 %.1f p99 %.1f max %.1f ms, %d requests"
                ).format(
                ms(open.latencyMicros.getValueAtPercentile(50.0)), openP99, ms(open.latencyMicros.maxValue),
                ms(open.uncorrectedLatencyMicros.getValueAtPercentile(50.0)), uncorrectedP99, open.late,
                ms(
                    closed.latencyMicros.getValueAtPercentile(50.0),
                ),
                closedP99, ms(closed.latencyMicros.maxValue), closed.successes,
            ),
        )
        assertTrue(openP99 >= 1500, "open loop corrected p99 $openP99 ms")
        // The 2 s stall hides from what a closed loop measures: counted, not timed, only the requests already on
        // the connections (4 open loop, 1 closed) were sent into it; a busy machine's delays stay far below 1.5 s.
        fun stalled(h: org.HdrHistogram.Histogram) = h.getCountBetweenValues(1_500_000, h.highestTrackableValue)
        assertTrue(stalled(open.uncorrectedLatencyMicros) <= 4, "open loop uncorrected p99 $uncorrectedP99 ms")
        assertTrue(stalled(closed.latencyMicros) <= 1, "closed loop p99 $closedP99 ms")
        assertTrue(ms(closed.latencyMicros.maxValue) >= 1500, "the closed loop's one stalled request")
        assertTrue(open.late > 100, "requests due during the stall went out late: ${open.late}")
        assertEquals(0, open.failures.total + closed.failures.total)
    }

    private fun stalledIteration(c: LoadClient): ClientReport {
        var stalled = false
        return c.iteration(10.0) { elapsed ->
            if (!stalled && elapsed >= 4.0) {
                ServerProbe.stall(Duration.ofSeconds(2))
                stalled = true
            }
        }
    }

    @Test
    fun `a rate the capped connections cannot carry is late, then dropped, and fails with what to change`() {
        // 10 connections × 100 ms = at most 100 req/s; 300 are asked for.
        val slow = Request("/noop/delay?ms=100", NoopEndpoints.DELAYED)
        LoadClient(server.address, 10, slow, ClientSettings(timeout = Duration.ofSeconds(1)), rate = 300.0).use { c ->
            c.start()
            c.beginIteration()
            val e = assertThrows<LoadFailure> { repeat(10_000) { c.next() } }
            assertTrue(e.message!!.contains("dropped"), e.message)
            assertTrue(e.message!!.contains("raise -p concurrency or lower the rate"), e.message)
            val r = c.endIteration()
            assertTrue(r.capReached && r.late > 0 && r.dropped > 0, "late ${r.late}, dropped ${r.dropped}")
            assertTrue(
                Guards.check(
                    IterationReport(r, null),
                )[Guards.BEHIND_SCHEDULE]!!.contains("all 10 connections were busy"),
            )
        }
    }
}
