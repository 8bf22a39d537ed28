package serverbench.client

import io.netty.buffer.Unpooled
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * Each kind of declared check, passing and failing with its one line, on a response parsed as the HTTP/1.1 client
 * parses it ([ResponseParser]) and judged as both protocols judge it ([ResponseCheck.verdict]).
 */
class ResponseExpectationTest {
    private val json = "application/json"

    /** [request]'s verdict on one response, fed to the parser in pieces of [piece] bytes (split reads). */
    private fun verdict(
        request: Request,
        body: String,
        status: Int = 200,
        type: String? = json,
        piece: Int = Int.MAX_VALUE,
    ): Rejection? {
        val check = ResponseCheck(request)
        val parser = ResponseParser(
            Unpooled.wrappedBuffer(request.expected),
            check.expectedType,
            check.exact,
            check.newBuffer(),
        )
        val bytes = body.toByteArray(Charsets.UTF_8)
        val head = "HTTP/1.1 $status X\r\n" + (type?.let { "Content-Type: $it\r\n" } ?: "") +
            "Content-Length: ${bytes.size}\r\n\r\n"
        val all = head.toByteArray(Charsets.ISO_8859_1) + bytes
        var carry = Unpooled.buffer()
        var result = ResponseParser.NEED_MORE
        for (from in all.indices step minOf(piece, all.size)) {
            carry.writeBytes(all, from, minOf(piece, all.size - from))
            result = parser.parse(carry)
            if (result != ResponseParser.NEED_MORE) break
            carry = Unpooled.buffer().writeBytes(carry)
        }
        assertEquals(ResponseParser.COMPLETE, result, "parsed")
        return check.verdict(
            parser.status,
            parser.contentTypeMatches,
            parser.contentType,
            parser.bodyMatch,
            parser.kept,
            request.shape?.newCheck(),
        )
    }

    private fun request(expect: ResponseExpectation?, expectedBody: String = "an order") =
        Request("/orders", expectedBody, expect = expect)

    private fun invalid(line: String, r: Rejection?) {
        assertEquals(FailureKind.INVALID_BODY, r?.kind, r?.detail)
        assertEquals(line, r!!.detail)
    }

    @Test
    fun `without an expectation a response is valid as before, 2xx and the exact body`() {
        assertNull(verdict(Request("/x", "hello"), "hello"))
        val wrong = verdict(Request("/x", "hello"), "hellx")
        invalid("body \"hellx\" (5 bytes), expected \"hello\"", wrong)
        val status = verdict(Request("/x", "hello"), "oops", status = 500)
        assertEquals(FailureKind.NON_2XX, status?.kind)
        assertEquals("HTTP 500 \"oops\"", status!!.detail)
    }

    @Test
    fun `a body longer than the failure line's sample ends in an ellipsis, a whole short one does not`() {
        val long = "{\"id\":7,\"at\":\"" + "2026-12-02T00:00:00Z".padStart(BodyMatch.SAMPLE_BYTES, '0') + "\"}"
        val cut = long.take(BodyMatch.SAMPLE_BYTES)
        val failed = verdict(Request("/x", "hello"), long, status = 500)
        assertEquals("HTTP 500 \"$cut…\"", failed!!.detail)
        val wrong = verdict(Request("/x", "hello"), long)!!.detail
        assertTrue(
            wrong.startsWith("body \"$cut…\" (${long.length} bytes), expected \"hello\"; first difference"),
            wrong,
        )
        val whole = "x".repeat(BodyMatch.SAMPLE_BYTES)
        assertEquals("HTTP 500 \"$whole\"", verdict(Request("/x", "hello"), whole, status = 500)!!.detail)
    }

    @Test
    fun `a declared status, one or a set, replaces any 2xx and keeps the exact body`() {
        val created = request(Expect.status(201), "made")
        assertNull(verdict(created, "made", status = 201))
        val ok = verdict(created, "made", status = 200)
        assertEquals(FailureKind.UNEXPECTED_STATUS, ok?.kind, "a 2xx is not counted as non-2xx")
        assertEquals("HTTP 200, expected 201", ok!!.detail)
        invalid("body \"mad\" (3 bytes), expected \"made\"", verdict(created, "mad", status = 201))

        val either = request(Expect.status(200, 201), "made")
        assertNull(verdict(either, "made", status = 200))
        assertNull(verdict(either, "made", status = 201))
        val missing = verdict(either, "nope", status = 404)
        assertEquals(FailureKind.NON_2XX, missing?.kind)
        assertEquals("HTTP 404 \"nope\", expected one of 200, 201", missing!!.detail)

        assertNull(verdict(request(Expect.status(404), "nope"), "nope", status = 404), "a 404 that is expected")
        assertThrows<IllegalArgumentException> { Expect.status() }
        assertThrows<IllegalArgumentException> { Expect.status(99) }
    }

    @Test
    fun `a Content-Type prefix is compared case-insensitively, declared once`() {
        val typed = request(Expect.contentType(json), "{}")
        assertNull(verdict(typed, "{}", type = "Application/JSON; charset=UTF-8"))
        invalid("Content-Type \"text/plain\", expected application/json", verdict(typed, "{}", type = "text/plain"))
        invalid("Content-Type \"none\", expected application/json", verdict(typed, "{}", type = null))

        val old = Request("/x", "{}", expectedContentType = json)
        invalid("Content-Type \"text/html\", expected application/json", verdict(old, "{}", type = "text/html"))

        val twice = Request("/x", "{}", expectedContentType = json, expect = Expect.contentType(json))
        assertThrows<IllegalArgumentException> { ResponseCheck(twice) }
    }

    private val order = """{"id":4711,"status":"NEW","createdAt":"2026-11-27T22:17:02Z","total":12.50,""" +
        """"customer":{"name":"Zoë","address":{"city":"Berlin"}},"items":[{"name":"mug"},{"name":"pen"}],""" +
        """"note":null,"paid":false}"""

    @Test
    fun `JSON fields pass by value, type and pattern, nested and by array index, split across reads`() {
        val expect = Expect.status(200, 201).contentType(json)
            .json("/id", Expect.integer())
            .json("/status", Expect.value("NEW"))
            .json("/createdAt", Expect.matches("\\d{4}-\\d{2}-\\d{2}T.*Z"))
            .json("/total", Expect.value(12.5))
            .json("/customer/address/city", Expect.value("Berlin"))
            .json("/customer/name", Expect.string())
            .json("/items/1/name", Expect.value("pen"))
            .json("/items", Expect.type(JsonType.ARRAY))
            .json("/customer", Expect.type(JsonType.OBJECT))
            .json("/note", Expect.value(null))
            .json("/paid", Expect.value(false))
            .json("/id", Expect.matches("\\d+"))
            .json("/id", Expect.value(4711L))
            .json("/note", Expect.present())
            .json("", Expect.type(JsonType.OBJECT))
        val r = request(expect, "an order with a generated id")
        for (piece in listOf(Int.MAX_VALUE, 1, 7, 64)) assertNull(verdict(r, order, piece = piece), "pieces of $piece")
    }

    @Test
    fun `a JSON field that fails says which, what was expected and what came`() {
        // The first SAMPLE_BYTES of the order (ASCII there), "…" for the rest: a cut value must not read as whole.
        assertTrue(order.toByteArray().size > BodyMatch.SAMPLE_BYTES)
        val sample = "; body \"${order.take(BodyMatch.SAMPLE_BYTES)}…\" (${order.toByteArray().size} bytes)"
        fun line(expect: ResponseExpectation) = verdict(request(expect), order)

        invalid("/status: expected \"PAID\", was \"NEW\"$sample", line(Expect.json("/status", Expect.value("PAID"))))
        invalid("/status: expected an integer, was \"NEW\"$sample", line(Expect.json("/status", Expect.integer())))
        invalid("/total: expected an integer, was 12.50$sample", line(Expect.json("/total", Expect.integer())))
        invalid("/id: expected 4712, was 4711$sample", line(Expect.json("/id", Expect.value(4712))))
        invalid(
            "/createdAt: expected a value matching \\d{2}:.*, was \"2026-11-27T22:17:02Z\"$sample",
            line(Expect.json("/createdAt", Expect.matches("\\d{2}:.*"))),
        )
        invalid(
            "/customer/address/city: expected \"Paris\", was \"Berlin\"$sample",
            line(Expect.json("/customer/address/city", Expect.value("Paris"))),
        )
        invalid("/items/5/name: missing, expected a string$sample", line(Expect.json("/items/5/name", Expect.string())))
        invalid("/items/0/sku: missing, expected any value$sample", line(Expect.json("/items/0/sku", Expect.present())))
        invalid(
            "/customer: expected a value matching .*, was {\"name\":\"Zoë\",\"address\":{\"city\":\"Berlin\"}}$sample",
            line(Expect.json("/customer", Expect.matches(".*"))),
        )
        invalid("/paid: expected true, was false$sample", line(Expect.json("/paid", Expect.value(true))))
        invalid("/note: expected a string, was null$sample", line(Expect.json("/note", Expect.string())))
        // Fields are checked in the order declared: the first that fails is the one reported.
        val first = Expect.json("/id", Expect.integer()).json("/status", Expect.value("X")).json("/a", Expect.present())
        invalid("/status: expected \"X\", was \"NEW\"$sample", line(first))
    }

    @Test
    fun `a body that is not one JSON document fails saying so`() {
        val expect = Expect.json("/id", Expect.integer())
        val notJson = verdict(request(expect), "{\"id\": 1")
        assertEquals(FailureKind.INVALID_BODY, notJson?.kind)
        assertTrue(notJson!!.detail.startsWith("body is not JSON ("), notJson.detail)
        assertTrue(notJson.detail.endsWith("): \"{\"id\": 1\" (8 bytes)"), notJson.detail)
        val trailing = verdict(request(expect), "{\"id\":1} x")
        assertTrue(trailing!!.detail.startsWith("body is not JSON ("), trailing.detail)
        invalid("body is empty, expected a JSON document", verdict(request(expect), ""))
    }

    @Test
    fun `a malformed pointer, regex or bound fails where it is declared`() {
        assertThrows<IllegalArgumentException> { Expect.json("id", Expect.integer()) }
        assertThrows<IllegalArgumentException> { Expect.matches("(") }
        assertThrows<IllegalArgumentException> { Expect.bodyMatches("[") }
        assertThrows<IllegalArgumentException> { Expect.bodyLength(5, 4) }
        assertThrows<IllegalArgumentException> { Expect.maxBodyBytes(0) }
        assertThrows<IllegalArgumentException> { Expect.value(listOf(1)) }
    }

    @Test
    fun `a regex must match the whole body`() {
        val digits = request(Expect.bodyMatches("\\d+"), "a number")
        assertNull(verdict(digits, "12345"))
        invalid("body \"12a\" (3 bytes), expected to match \\d+", verdict(digits, "12a"))
        assertNull(verdict(request(Expect.bodyMatches("(?s)\\{.*\"id\".*")), "{\n\"id\": 1}"))
    }

    @Test
    fun `a length range counts bytes and buffers nothing`() {
        val r = request(Expect.bodyLength(2, 4), "2 to 4 bytes")
        assertNull(ResponseCheck(r).newBuffer(), "a length alone keeps no body")
        assertNull(verdict(r, "ab"))
        assertNull(verdict(r, "äb"), "bytes, not characters: ä is 2")
        invalid("body of 5 bytes, expected 2 to 4 bytes", verdict(r, "hello"))
        invalid("body of 1 bytes, expected 2 to 4 bytes", verdict(r, "h"))
    }

    @Test
    fun `a body beyond the bound fails with the bound and how to raise it`() {
        val expect = Expect.json("/id", Expect.integer())
        assertEquals(ResponseExpectation.DEFAULT_MAX_BODY_BYTES, ResponseCheck(request(expect)).newBuffer()!!.bound)
        val big = "{\"id\":1,\"pad\":\"${"x".repeat(ResponseExpectation.DEFAULT_MAX_BODY_BYTES)}\"}"
        val tooLarge = verdict(request(expect), big, piece = 8192)
        invalid(
            "body of ${big.length} bytes, over the 65536-byte bound of its JSON, regex or shape check; raise it " +
                "with the request's expectation, .maxBodyBytes(n) (at most 67108864)",
            tooLarge,
        )
        assertNull(verdict(request(expect.maxBodyBytes(big.length)), big, piece = 8192), "raised, it passes")
        val small = request(Expect.bodyMatches(".*").maxBodyBytes(4))
        assertTrue(verdict(small, "hello")!!.detail.startsWith("body of 5 bytes, over the 4-byte bound"))
        assertNull(verdict(small, "hell"))
    }

    @Test
    fun `a body shape sees the whole body, not only its first bytes`() {
        val shaped = Request(
            "/n",
            "a number of 100 digits",
            BodyShape {
                BodyCheck {
                    if (it.length ==
                        100
                    ) {
                        null
                    } else {
                        "no"
                    }
                }
            },
        )
        assertNull(verdict(shaped, "1".repeat(100)))
        invalid("body \"12\": no, expected a number of 100 digits", verdict(shaped, "12"))
    }

    @Test
    fun `the expectation reads as what it checks`() {
        val e = Expect.status(201, 200).contentType(json).bodyLength(1, 9).json("/id", Expect.integer())
        assertEquals("status 200|201, Content-Type application/json*, 1..9 bytes, /id: an integer", e.toString())
        assertEquals(setOf(200, 201), e.statuses)
    }
}
