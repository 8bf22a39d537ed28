package serverbench.client

import io.netty.buffer.Unpooled
import io.netty.buffer.UnpooledByteBufAllocator
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** A request's method, headers and body on the wire, HTTP/1.1 bytes exact and the HTTP/2 head; templates rendered. */
class RequestEncodingTest {
    private fun wire(r: Request) = String(r.wireBytes("localhost", 8080), Charsets.UTF_8)

    private val host = "Host: localhost:8080\r\n"

    @Test
    fun `each method with headers and a body, byte for byte`() {
        val headers = mapOf("X-Tenant" to "acme", "Accept" to "application/json")
        val put = Request("/orders/7?dry=1", "", method = Method.PUT, headers = headers, body = "{}".toByteArray())
        assertEquals(
            "PUT /orders/7?dry=1 HTTP/1.1\r\n${host}X-Tenant: acme\r\nAccept: application/json\r\n" +
                "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
            wire(put),
        )
        val patch = Request("/o/1", "", method = Method.PATCH, body = "x".toByteArray(), contentType = "text/plain")
        assertEquals(
            "PATCH /o/1 HTTP/1.1\r\n${host}Content-Type: text/plain\r\nContent-Length: 1\r\n\r\nx",
            wire(patch),
        )
        // Without a body, DELETE says nothing of one; POST, PUT and PATCH say its length is 0 (RFC 9110 §8.6).
        assertEquals(
            "DELETE /o/1 HTTP/1.1\r\n${host}X-A: 1\r\n\r\n",
            wire(Request("/o/1", "", method = Method.DELETE, headers = mapOf("X-A" to "1"))),
        )
        assertEquals(
            "POST /o HTTP/1.1\r\n${host}Content-Length: 0\r\n\r\n",
            wire(Request("/o", "", method = Method.POST)),
        )
        assertEquals("HEAD /o HTTP/1.1\r\n${host}\r\n", wire(Request("/o", "", method = Method.HEAD)))
        assertEquals("GET /cpu/direct?limit=10 HTTP/1.1\r\n$host\r\n", wire(Request("/cpu/direct?limit=10", "1")))
        assertEquals("PUT /orders/7?dry=1 (2-byte body)", put.toString())
        assertEquals("HEAD /o", Request("/o", "", method = Method.HEAD).toString())
    }

    @Test
    fun `a body template with no placeholder is a constant body, its escapes applied`() {
        val r = Request("/o", "", bodyTemplate = "{\"a\":\"\\{{b}}\"}")
        assertEquals(false, r.templated)
        assertEquals(
            "POST /o HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"a\":\"{{b}}\"}",
            wire(r),
        )
    }

    @Test
    fun `placeholders are drawn once per request, shared by path and body, the sequence distinct per request`() {
        val r = Request(
            "/orders/{{seq}}",
            "",
            method = Method.PUT,
            bodyTemplate = "{\"id\":{{ seq }},\"ref\":\"{{uuid}}\",\"n\":{{random}}}",
            headers = mapOf("X-Tenant" to "acme"),
        )
        assertTrue(r.templated)
        val renderer = RequestRenderer(r, "localhost", 8080)
        val seen = HashSet<Long>()
        repeat(20) { i ->
            renderer.draw()
            val buf = renderer.writeH1(UnpooledByteBufAllocator.DEFAULT)
            val text = buf.toString(Charsets.UTF_8).also { buf.release() }
            val m = RENDERED.matchEntire(text) ?: error("not as expected: $text")
            val (seqInPath, length, body, seqInBody) = m.destructured
            assertEquals(i + 1L, seqInPath.toLong(), "the sequence counts from 1")
            assertEquals(seqInPath, seqInBody)
            assertEquals(body.toByteArray().size, length.toInt(), "Content-Length is the rendered body's")
            assertTrue(seen.add(seqInPath.toLong()))
        }
        // A second client of the same request goes on counting: the sequence is the request's, not a client's.
        val other = RequestRenderer(r, "localhost", 8080).apply { draw() }
        val buf = other.writeH1(UnpooledByteBufAllocator.DEFAULT)
        assertTrue(buf.toString(Charsets.UTF_8).startsWith("PUT /orders/21 HTTP/1.1\r\n"))
        buf.release()
        assertEquals("PUT /orders/{{seq}} (body from a template)", r.toString())
    }

    @Test
    fun `the HTTP2 head has the pseudo-headers, lower-case names and the rendered path and length`() {
        val r = Request(
            "/orders/{{seq}}",
            "",
            method = Method.PATCH,
            bodyTemplate = "{\"id\":{{seq}}}",
            headers = mapOf("X-Tenant" to "acme"),
        )
        val renderer = RequestRenderer(r, "127.0.0.1", 9)
        val head = renderer.h2Head("https", "127.0.0.1:9")
        assertEquals("PATCH", "${head.method()}")
        assertEquals("https", "${head.scheme()}")
        assertEquals("127.0.0.1:9", "${head.authority()}")
        assertEquals("acme", "${head.get("x-tenant")}")
        assertEquals("application/json", "${head.get("content-type")}")
        repeat(12) {
            renderer.draw()
            renderer.h2Headers(head)
            val body = renderer.h2Body(UnpooledByteBufAllocator.DEFAULT)!!
            val text = body.toString(Charsets.UTF_8).also { body.release() }
            val seq = it + 1
            assertEquals("/orders/$seq", "${head.path()}")
            assertEquals("{\"id\":$seq}", text)
            assertEquals("${text.length}", "${head.get("content-length")}")
        }
        val get = RequestRenderer(
            Request("/a?b=1", "x", headers = mapOf("Accept" to "*/*")),
            "h",
            1,
        ).h2Head("http", "h:1")
        assertEquals("GET", "${get.method()}")
        assertEquals("/a?b=1", "${get.path()}")
        assertNull(get.get("content-length"))
        val post = RequestRenderer(Request("/a", "", method = Method.POST), "h", 1).h2Head("http", "h:1")
        assertEquals("0", "${post.get("content-length")}")
    }

    @Test
    fun `a uuid is version 4, a random number non-negative decimal`() {
        val r = Request("/u/{{uuid}}/{{random}}", "", method = Method.DELETE)
        val renderer = RequestRenderer(r, "h", 1)
        val uuids = HashSet<String>()
        repeat(50) {
            renderer.draw()
            val buf = renderer.writeH1(UnpooledByteBufAllocator.DEFAULT)
            val line = buf.toString(Charsets.US_ASCII).lineSequence().first().also { buf.release() }
            val m = Regex("DELETE /u/([0-9a-f-]+)/([0-9]+) HTTP/1.1").matchEntire(line) ?: error(line)
            val uuid = m.groupValues[1]
            assertTrue(UUID.matches(uuid), uuid)
            assertEquals(uuid, java.util.UUID.fromString(uuid).toString())
            assertEquals(4, java.util.UUID.fromString(uuid).version())
            assertTrue(m.groupValues[2].toLong() >= 0)
            uuids += uuid
        }
        assertEquals(50, uuids.size)
    }

    @Test
    fun `a template renders placeholders, escapes and stray braces as documented`() {
        val t = Template.parse("a{{seq}}b\\{{c}} {d} }}{{ random }}", "test")
        val v = TemplateValues(seq = 42, random = 7)
        assertEquals("a42b{{c}} {d} }}7", String(t.render(v)))
        assertEquals(t.render(v).size, t.length(v))
        assertEquals(setOf(Placeholder.SEQ, Placeholder.RANDOM), t.uses)
        val unknown = assertFailsWith<IllegalArgumentException> { Template.parse("{\"id\":{{sequence}}}", "body") }
        assertTrue(unknown.message!!.contains("\"{{sequence}}\" is not a placeholder"), unknown.message)
        assertFailsWith<IllegalArgumentException> { Template.parse("x{{seq", "body") }
        val buf = Unpooled.buffer()
        writeDecimal(buf, Long.MAX_VALUE)
        assertEquals("${Long.MAX_VALUE}", buf.toString(Charsets.US_ASCII))
    }

    @Test
    fun `headers that would corrupt the request or repeat the client's own are refused when it is built`() {
        for (bad in listOf(
            "X-A" to "1\r\nX-Injected: 2",
            "X-A" to "a\nb",
            "X A" to "1",
            "X-A:" to "1",
            "" to "1",
            "Host" to "other",
            "content-length" to "3",
            "Transfer-Encoding" to "chunked",
            "Content-Type" to "text/plain",
        )) {
            assertFailsWith<IllegalArgumentException>("$bad") { Request("/", "", headers = mapOf(bad)) }
        }
        val crlf = assertFailsWith<IllegalArgumentException> { Request("/", "", headers = mapOf("X-A" to "1\r\n")) }
        assertTrue(crlf.message!!.contains("\\u000d\\u000a"), crlf.message)
        // HTTP/1.1 may say Connection: close; HTTP/2 refuses connection-specific headers, te but "te: trailers".
        val close = Request("/", "", headers = mapOf("Connection" to "close"))
        RequestHeaders.checkH2(mapOf("TE" to "trailers"))
        for (h2Bad in listOf("Connection" to "close", "Keep-Alive" to "5", "Upgrade" to "h2c", "TE" to "gzip")) {
            assertFailsWith<IllegalArgumentException> { RequestHeaders.checkH2(mapOf(h2Bad)) }
        }
        val h2 = ClientSettings(http2Streams = 1)
        val refused = assertFailsWith<IllegalArgumentException> {
            LoadClient(java.net.InetSocketAddress("127.0.0.1", 9), 1, close, h2)
        }
        assertTrue(refused.message!!.contains("connection-specific"), refused.message)
    }

    @Test
    fun `a method without a body refuses one, a HEAD expects an empty body, a path refuses spaces`() {
        assertFailsWith<IllegalArgumentException> { Request("/", "", method = Method.GET, body = ByteArray(1)) }
        assertFailsWith<IllegalArgumentException> { Request("/", "", method = Method.HEAD, bodyTemplate = "{{seq}}") }
        assertFailsWith<IllegalArgumentException> { Request("/", "hello", method = Method.HEAD) }
        assertFailsWith<IllegalArgumentException> { Request("/", "", body = ByteArray(1), bodyTemplate = "x") }
        assertFailsWith<IllegalArgumentException> { Request("/a b", "") }
        assertFailsWith<IllegalArgumentException> { Request("/a\r\nX: 1", "") }
        assertFailsWith<IllegalArgumentException> { Request("/{{nope}}", "") }
    }

    @Test
    fun `the builder makes the request the constructor does`() {
        val built = Request.builder(Method.PUT, "/orders/{{seq}}").header("X-Tenant", "acme")
            .bodyTemplate("{\"id\":{{seq}}}").contentType("application/json").expectBody("ok").build()
        val direct = Request(
            "/orders/{{seq}}",
            "ok",
            bodyTemplate = "{\"id\":{{seq}}}",
            method = Method.PUT,
            headers = mapOf("X-Tenant" to "acme"),
        )
        assertEquals(wire(direct), wire(built))
        assertEquals("ok", built.expectedBody)
        assertEquals("HEAD /x", Request.builder(Method.HEAD, "/x").build().toString())
    }

    @Test
    fun `a response to a HEAD ends with its head, whatever Content-Length it announces`() {
        val p = ResponseParser(Unpooled.EMPTY_BUFFER, null, headRequest = true)
        val buf = Unpooled.copiedBuffer(
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
            Charsets.US_ASCII,
        )
        assertEquals(ResponseParser.COMPLETE, p.parse(buf))
        assertEquals(0, p.bodyLength)
        assertTrue(p.keepAlive)
        p.reset()
        assertEquals(ResponseParser.COMPLETE, p.parse(buf), "the next response starts right after the head")
        assertEquals(0, buf.readableBytes())
        // Without Content-Length, a body would run to the close; a HEAD's has none, so the connection stays.
        p.reset()
        assertEquals(
            ResponseParser.COMPLETE,
            p.parse(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\n\r\n", Charsets.US_ASCII)),
        )
        assertTrue(p.keepAlive)
    }

    private companion object {
        val UUID = Regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
        val RENDERED = Regex(
            "PUT /orders/([0-9]+) HTTP/1.1\r\nHost: localhost:8080\r\nX-Tenant: acme\r\n" +
                "Content-Type: application/json\r\nContent-Length: ([0-9]+)\r\n\r\n" +
                "(\\{\"id\":([0-9]+),\"ref\":\"[0-9a-f-]{36}\",\"n\":[0-9]+})",
        )
    }
}
