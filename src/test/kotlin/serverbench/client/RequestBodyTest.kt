package serverbench.client

import io.netty.buffer.Unpooled
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** A request with a body on the wire, and the `Content-Type` check of its answer. */
class RequestBodyTest {
    @Test
    fun `a request with a body is a POST with its type and exact length, encoded once`() {
        val body = "{\"name\":\"Zoë\"}".toByteArray(Charsets.UTF_8)
        val request = Request("/json/direct", "{}", body = body)
        val wire = request.wireBytes("127.0.0.1", 8080)
        val head = "POST /json/direct HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n" +
            "Content-Length: 15\r\n\r\n"
        assertEquals(15, body.size, "Content-Length counts bytes, not characters")
        assertEquals(head, String(wire, 0, head.length, Charsets.US_ASCII))
        assertTrue(wire.copyOfRange(head.length, wire.size).contentEquals(body))
        val encoded = request.encode("127.0.0.1", 8080)
        try {
            assertEquals(wire.size, encoded.readableBytes())
        } finally {
            encoded.release()
        }
        assertEquals("POST /json/direct (15-byte body)", request.toString())
    }

    @Test
    fun `a request without a body stays a GET`() {
        val wire = String(Request("/noop/hello", "hello").wireBytes("localhost", 1), Charsets.US_ASCII)
        assertEquals("GET /noop/hello HTTP/1.1\r\nHost: localhost:1\r\n\r\n", wire)
    }

    private fun parse(response: String, type: String? = "application/json", split: Int = response.length) =
        ResponseParser(
            Unpooled.copiedBuffer("{}", Charsets.UTF_8),
            type?.toByteArray(Charsets.US_ASCII),
        ).also { p ->
            val buf = Unpooled.buffer()
            buf.writeBytes(response.substring(0, split).toByteArray(Charsets.ISO_8859_1))
            if (p.parse(buf) == ResponseParser.NEED_MORE) {
                buf.writeBytes(response.substring(split).toByteArray(Charsets.ISO_8859_1))
                assertEquals(ResponseParser.COMPLETE, p.parse(buf))
            }
        }

    private fun response(typeHeader: String) = "HTTP/1.1 200 OK\r\n$typeHeader\r\nContent-Length: 2\r\n\r\n{}"

    @Test
    fun `the content type must start with the expected one, in any case, parameters allowed`() {
        for (header in listOf(
            "Content-Type: application/json",
            "content-type:application/json;charset=UTF-8",
            "CONTENT-TYPE:  Application/JSON ",
        )) {
            val p = parse(response(header))
            assertTrue(p.contentTypeMatches, header)
            assertTrue(p.bodyMatches, header)
        }
    }

    @Test
    fun `another content type, or none, is reported with what came`() {
        val wrong = parse(response("Content-Type: text/plain;charset=UTF-8"))
        assertFalse(wrong.contentTypeMatches)
        assertEquals("text/plain;charset=UTF-8", wrong.contentType)
        val short = parse(response("Content-Type: app"))
        assertFalse(short.contentTypeMatches)
        val none = parse(response("X-Other: 1"))
        assertFalse(none.contentTypeMatches)
        assertEquals("none", none.contentType)
        // Without an expected type, any or none is fine (every family before the JSON one).
        assertTrue(parse(response("X-Other: 1"), type = null).contentTypeMatches)
    }

    @Test
    fun `a head split across reads is checked the same`() {
        val text = response("Content-Type: text/html")
        for (split in 1 until text.length) {
            assertFalse(parse(text, split = split).contentTypeMatches, "split at $split")
            assertTrue(parse(response("Content-Type: application/json"), split = split).contentTypeMatches)
        }
    }

    @Test
    fun `an interim response's headers do not count`() {
        val text =
            "HTTP/1.1 100 Continue\r\nContent-Type: text/plain\r\n\r\n" + response("Content-Type: application/json")
        val p = parse(text)
        assertEquals(200, p.status)
        assertTrue(p.contentTypeMatches)
    }
}
