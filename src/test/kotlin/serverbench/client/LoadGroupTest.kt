package serverbench.client

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import serverbench.app.NoopEndpoints
import java.time.Duration
import kotlin.test.assertEquals
import kotlin.test.assertNotNull
import kotlin.test.assertTrue

/**
 * Several client threads against a real server (WebFlux on Netty): the open-loop rate split over them, failures
 * summed against one tolerance whichever thread saw them, and no thread left behind. JMH's count and bursts are in
 * [MeasurementWindowTest]; the split's arithmetic in [LoadSplitTest].
 */
class LoadGroupTest : NettyServerTest() {
    private fun workerThreads() = Thread.getAllStackTraces().keys.filter { it.name.startsWith(LoadGroup.THREAD_PREFIX) }

    @Test
    fun `open loop keeps the whole rate across threads, each with its share`() {
        val request = Request("/noop/delay?ms=10", NoopEndpoints.DELAYED)
        LoadGroup(server.address, 16, request, rate = 400.0, threads = 2).use { c ->
            c.start()
            c.beginIteration()
            val started = System.nanoTime()
            while (System.nanoTime() - started < 1_500_000_000) c.next()
            val report = c.endIteration()
            assertEquals(400.0, report.rate)
            assertEquals(2, report.threads.size)
            // Behaviour, not speed: each thread schedules its 200/s over its own iteration, which starts and ends when
            // it gets the command, a little apart from the others' on a busy machine. The schedule counts what went
            // out of what was due in that window: all of it, unless requests found every connection busy (a server
            // slowed by the machine), which are then late.
            val expected = report.threads.sumOf { 200 * it.wallNanos / 1e9 }
            val sent = "${report.scheduled} sent, $expected due in the threads' windows, ${report.late} late"
            assertTrue(report.scheduled <= expected + 2, sent)
            assertTrue(if (report.capReached) report.late > 0 else report.scheduled >= expected - 2, sent)
            assertNotNull(report.uncorrectedLatencyMicros)
            val counts = report.threads.map { it.successes }
            // Half each, within a tenth of the whole (windows apart by a busy machine's delays), while both kept up.
            if (!report.capReached) {
                assertTrue(counts.all { it * 10 in counts.sum() * 4..counts.sum() * 6 }, "each thread half: $counts")
            }
            assertTrue(counts.all { it > 0 }, "each thread carried load: $counts")
            assertEquals(0, report.failures.total)
        }
    }

    @Test
    fun `the tolerance applies to every thread's failures together`() {
        val request = Request("/fault/status?code=503", "ok")
        val settings = ClientSettings(timeout = Duration.ofSeconds(5), maxErrors = 5)
        LoadGroup(server.address, 4, request, settings, threads = 2).use { c ->
            val e = assertThrows<LoadFailure> {
                c.start()
                c.beginIteration()
                repeat(1000) { c.next() }
            }
            // The sixth failure fails the run; requests already in flight on the other connections may add a few.
            val n = e.message!!.substringBefore(" failed requests").toInt()
            assertTrue(n in 6..10, e.message)
            assertTrue(e.message!!.contains("(tolerated: 5)") && e.message!!.contains("non-2xx"), e.message)
        }
    }

    @Test
    fun `closing ends every client thread`() {
        LoadGroup(server.address, 6, Request("/noop/hello", NoopEndpoints.HELLO), threads = 3).use { c ->
            c.start()
            assertEquals(2, workerThreads().size)
            c.beginIteration()
            repeat(100) { c.next() }
            c.endIteration()
            assertEquals(0, c.drain(Duration.ofSeconds(5)))
        }
        val deadline = System.nanoTime() + 5_000_000_000
        while (workerThreads().isNotEmpty() && System.nanoTime() < deadline) Thread.sleep(10)
        assertEquals(emptyList(), workerThreads())
    }
}
