package serverbench.live

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** What a benchmark run is to a live comparison: the requests its class sends, and serve's arguments for its server. */
class LiveTargetTest {
    private val cpu = "serverbench.benchmarks.CpuBenchmark.direct"

    @Test
    fun `the benchmark class says what the client sends and which server serve starts`() {
        val t = LiveTarget.of(
            cpu,
            mapOf("server" to "netty", "limit" to "10500", "concurrency" to "32"),
            served = false,
        )
        assertEquals("/cpu/direct?limit=10500", t.mix.entries.single().request.path)
        assertEquals(32, t.concurrency)
        assertEquals(listOf("--server", "netty"), t.serveArgs)
        assertEquals(emptyMap(), t.properties)
    }

    @Test
    fun `a CPU budget and a server knob reach the server's process`() {
        val budgeted = LiveTarget.of(cpu, mapOf("server" to "tomcat", "limit" to "100", "cpus" to "1"), served = false)
        assertEquals(listOf("--server", "tomcat", "--cpus", "1"), budgeted.serveArgs)
        val knob = LiveTarget.of(
            "serverbench.benchmarks.BlockingIoBenchmark.direct",
            mapOf("server" to "tomcat", "tomcatMaxThreads" to "10", "delayMs" to "100"),
            served = false,
        )
        assertEquals("10", knob.properties["server.tomcat.threads.max"])
        assertTrue(knob.mix.entries.single().request.path.contains("100"), knob.mix.toString())
    }

    @Test
    fun `what a process of its own cannot serve the same way is refused, naming the fork mode`() {
        for ((name, value) in listOf(
            "tls" to "true",
            "protocol" to "h2",
            "rate" to "100",
            "objective" to "p99:100ms",
        )) {
            val e = assertThrows<LiveTarget.NotLive> {
                LiveTarget.of(cpu, mapOf("server" to "netty", "limit" to "100", name to value), served = false)
            }
            assertTrue(e.message!!.endsWith("; --mode forks"), e.message)
        }
        val db = assertThrows<LiveTarget.NotLive> {
            LiveTarget.of("serverbench.benchmarks.DatabaseBenchmark.jdbc", mapOf("server" to "tomcat"), served = false)
        }
        assertTrue(db.message!!.contains("cannot run in a process of its own"), db.message)
        // A team's own endpoints (@ServerEndpoints): compare without --mode measures them fork by fork.
        val own = assertThrows<LiveTarget.NotLive> {
            LiveTarget.of("example.orders.OrdersBenchmark.putOrder", mapOf("server" to "netty"), served = false)
        }
        assertTrue(own.message!!.contains("its code is the user's"), own.message)
    }
}
