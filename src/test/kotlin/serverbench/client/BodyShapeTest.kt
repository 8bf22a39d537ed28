package serverbench.client

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.net.Socket
import java.time.Duration
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** Bodies that change per response (a sequence's next value) are checked by shape, per connection. */
class BodyShapeTest {
    private val settings = ClientSettings(timeout = Duration.ofSeconds(5))

    @Test
    fun `an increasing number must be a positive integer larger than the connection's previous answer`() {
        val check = BodyShape.increasingNumber.newCheck()
        assertNull(check.check("5"))
        assertNull(check.check("7"))
        assertEquals("not larger than this connection's previous answer, 7", check.check("7"))
        assertEquals("not a positive integer", check.check("-3"))
        assertEquals("not a positive integer", check.check("7 "))
        assertNull(BodyShape.increasingNumber.newCheck().check("1"), "each connection starts afresh")
    }

    /** Answers each request on a connection with [bodies]' next element; -1 and the connection stops answering. */
    private fun serve(vararg bodies: String) = RawServer { s: Socket ->
        for (body in bodies) {
            if (!RawServer.readRequest(s)) return@RawServer
            s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n$body".toByteArray())
            s.getOutputStream().flush()
        }
        Thread.sleep(2000)
    }

    private fun client(raw: RawServer) =
        LoadClient(raw.address, 1, Request("/n", "a larger number", BodyShape.increasingNumber), settings)

    @Test
    fun `the client accepts a body that changes per response when it has the shape`() {
        serve("41", "42", "1000", "1001").use { raw ->
            client(raw).use { c ->
                c.start()
                c.beginIteration()
                repeat(4) { c.next() }
                val report = c.endIteration()
                assertEquals(4, report.successes)
                assertEquals(0, report.failures.total)
            }
        }
    }

    @Test
    fun `a body without the shape is an invalid body that says what came back and what was expected`() {
        serve("41", "40").use { raw ->
            client(raw).use { c ->
                c.start()
                c.beginIteration()
                val e = assertThrows<LoadFailure> { repeat(2) { c.next() } }
                assertTrue(e.message!!.contains("invalid body"), e.message)
                assertTrue(
                    e.message!!.contains(
                        "body \"40\": not larger than this connection's previous answer, 41, " +
                            "expected a larger number",
                    ),
                    e.message,
                )
                assertEquals(1, c.endIteration().successes)
            }
        }
    }
}
