package serverbench.metrics

import com.sun.net.httpserver.HttpServer
import org.junit.jupiter.api.Test
import serverbench.fixture.RemoteTarget
import serverbench.fixture.ServeAdmin
import serverbench.fixture.TargetStatus
import java.net.InetSocketAddress
import java.time.Duration
import kotlin.test.assertEquals

/**
 * A target's figures per iteration, read over HTTP from an admin endpoint that answers what a serve JVM without
 * process CPU or allocation counters answers (-1): the figure is then absent (-1), never a difference of 0.
 */
class RemoteResourcesTest {
    private fun status(cpu: Long, allocated: Long, gcPauseMillis: Long? = null) = TargetStatus(
        server = "netty", pid = 1, jdk = "17", availableProcessors = 2, processCpuNanos = cpu,
        allocatedBytes = allocated, threads = 20, peakThreads = 20, gcCount = 0, gcMillis = 0,
        heapAfterGcBytes = -1, openFds = 30, inFlightMax = -1, gcPauseMillis = gcPauseMillis,
    )

    /** Runs [block] against an admin endpoint whose answers are [answers], one per request, in turn. */
    private fun <T> admin(vararg answers: TargetStatus, block: (RemoteTarget) -> T): T {
        val queue = ArrayDeque(answers.toList())
        val http = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
        for (path in listOf(ServeAdmin.STATUS_PATH, ServeAdmin.BEGIN_PATH)) {
            http.createContext(path) { exchange ->
                val body = queue.removeFirst().toJson().toByteArray()
                exchange.sendResponseHeaders(200, body.size.toLong())
                exchange.responseBody.use { it.write(body) }
            }
        }
        http.start()
        try {
            // A long timeout: what is tested is the figures, and a first request on a busy machine took over 3 s.
            return block(RemoteTarget(InetSocketAddress("127.0.0.1", 1), http.address, Duration.ofSeconds(60)))
        } finally {
            http.stop(0)
        }
    }

    @Test
    fun `a target that reports no process CPU or allocation gives no figure, not 0`() {
        val report = admin(status(-1, -1), status(-1, -1)) {
            RemoteResources(it).run {
                begin()
                end()
            }
        }
        assertEquals(-1, report.processCpuNanos, "no CPU figure")
        assertEquals(-1, report.allocatedBytes, "no allocation figure")
        // An older serve, whose status has no pause time: no figure either.
        assertEquals(-1, report.gcPauseNanos, "no GC pause figure")
    }

    @Test
    fun `a target that reports them gives their growth over the iteration`() {
        val report = admin(status(1_000, 4_096, 10), status(5_000, 10_240, 13)) {
            RemoteResources(it).run {
                begin()
                end()
            }
        }
        assertEquals(4_000, report.processCpuNanos)
        assertEquals(6_144, report.allocatedBytes)
        assertEquals(3_000_000, report.gcPauseNanos)
    }

    @Test
    fun `a counter missing at either end of the iteration is no figure`() {
        assertEquals(-1, ResourceReport.growth(-1, 5_000))
        assertEquals(-1, ResourceReport.growth(1_000, -1))
        assertEquals(0, ResourceReport.growth(7, 7))
    }
}
