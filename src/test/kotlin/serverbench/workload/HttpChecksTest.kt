package serverbench.workload

import org.junit.jupiter.api.Test
import serverbench.workload.HttpFiles.NAME
import serverbench.workload.HttpFiles.error
import serverbench.workload.HttpFiles.request
import serverbench.workload.HttpFiles.verdict
import kotlin.test.assertEquals
import kotlin.test.assertNull

/**
 * `# @expect` comments, each kind mapped onto the client's checks: asserted by the responses the request then accepts
 * and refuses, judged as the client judges them.
 */
class HttpChecksTest {
    private val order = """{"id":7,"sku":"A-1","total":12.50,"paid":false,"note":null,"items":[],"customer":{},""" +
        """"createdAt":"2026-11-28T08:00:00Z"}"""

    @Test
    fun `without a check, any 2xx with any body passes`() {
        val r = request("GET /orders")
        assertNull(verdict(r, order))
        assertNull(verdict(r, "", status = 204, type = null))
        assertNull(verdict(r, "<html/>", status = 201, type = "text/html"))
        assertEquals("non-2xx: HTTP 404 \"gone\"", verdict(r, "gone", status = 404))
        assertNull(verdict(request("HEAD /orders"), ""))
    }

    @Test
    fun `status - one or several, any body`() {
        val one = request("# @expect status 201\nPOST /orders")
        assertNull(verdict(one, order, status = 201))
        assertEquals("unexpected status: HTTP 200, expected 201", verdict(one, order, status = 200))
        val several = request("# @expect status 200 201  204\nPOST /orders")
        for (s in listOf(200, 201, 204)) assertNull(verdict(several, "x", status = s))
        assertEquals("non-2xx: HTTP 404 \"x\", expected one of 200, 201, 204", verdict(several, "x", status = 404))
        assertNull(verdict(request("# @expect status 404\nGET /gone"), "no", status = 404))
    }

    @Test
    fun `content-type - a prefix, any case`() {
        val r = request("# @expect content-type application/json\nGET /orders")
        assertNull(verdict(r, order, type = "Application/JSON; charset=UTF-8"))
        assertEquals(
            "invalid body: Content-Type \"text/plain\", expected application/json",
            verdict(r, order, type = "text/plain"),
        )
    }

    @Test
    fun `json - every type, present, and a missing field`() {
        val types = listOf(
            "/id" to "integer",
            "/total" to "number",
            "/sku" to "string",
            "/paid" to "boolean",
            "/note" to "null",
            "/customer" to "object",
            "/items" to "array",
            "/note" to "present",
        )
        val r = request(types.joinToString("") { "# @expect json ${it.first} ${it.second}\n" } + "GET /orders")
        assertNull(verdict(r, order))
        assertEquals(
            "invalid body: /id: expected a string, was 7; body \"${order.take(80)}…\" (${order.length} bytes)",
            verdict(request("# @expect json /id string\nGET /o"), order),
        )
        assertEquals(
            "invalid body: /gone: missing, expected any value; body \"${order.take(80)}…\" (${order.length} bytes)",
            verdict(request("# @expect json /gone present\nGET /o"), order),
        )
    }

    @Test
    fun `json - equal to a JSON literal, string, number, boolean or null`() {
        val r = request(
            """
            # @expect json /sku = "A-1"
            # @expect json /id = 7
            # @expect json /total = 12.5
            # @expect json /paid = false
            // @expect json /note = null
            GET /orders
            """,
        )
        assertNull(verdict(r, order))
        assertEquals(
            "invalid body: /sku: expected \"B-2\", was \"A-1\"; body \"${order.take(80)}…\" (${order.length} bytes)",
            verdict(request("# @expect json /sku = \"B-2\"\nGET /o"), order),
        )
        assertEquals(
            "$NAME:1: A-1 is not a JSON value (a string is quoted: = \"A-1\")",
            error("# @expect json /sku = A-1\nGET /o"),
        )
        assertEquals(
            "$NAME:1: [1]: the value to compare is a string, a number, true, false or null",
            error("# @expect json /items = [1]\nGET /o"),
        )
    }

    @Test
    fun `json matches, body matches - a regex the whole value or body matches`() {
        val r = request("# @expect json /createdAt matches \\d{4}-\\d{2}-.*Z\n# @expect json /id matches \\d+\nGET /o")
        assertNull(verdict(r, order))
        assertEquals(
            "invalid body: /createdAt: expected a value matching \\d{4}, was \"2026-11-28T08:00:00Z\"; " +
                "body \"${order.take(80)}…\" (${order.length} bytes)",
            verdict(request("# @expect json /createdAt matches \\d{4}\nGET /o"), order),
        )
        val body = request("# @expect body matches (?s)\\{.*\"sku\":\"A-\\d\".*\nGET /o")
        assertNull(verdict(body, order))
        assertEquals(
            "invalid body: body \"nope\" (4 bytes), expected to match (?s)\\{.*\"sku\":\"A-\\d\".*",
            verdict(body, "nope"),
        )
    }

    @Test
    fun `length - a range of bytes, or one length`() {
        val r = request("# @expect length 3..5\nGET /o")
        assertNull(verdict(r, "abc"))
        assertNull(verdict(r, "abcde"))
        assertEquals("invalid body: body of 6 bytes, expected 3 to 5 bytes", verdict(r, "abcdef"))
        val exactly = request("# @expect length 2\nGET /o")
        assertEquals("invalid body: body of 1 bytes, expected 2 to 2 bytes", verdict(exactly, "a"))
    }

    @Test
    fun `checks combine, in any order, with the status and body checks together`() {
        val r = request(
            """
            ### create
            # @weight 2
            # @expect status 201
            # @expect content-type application/json
            # @expect json /id integer
            # @expect length 10..500
            POST /orders

            {"sku":"A-1"}
            """,
        )
        assertNull(verdict(r, order, status = 201))
        assertEquals("invalid body: body of 2 bytes, expected 10 to 500 bytes", verdict(r, "{}", status = 201))
    }

    @Test
    fun `a malformed check is refused at its line`() {
        val usage = "not a check: write # @expect status 201 | content-type TYPE | json /pointer TYPE | " +
            "json /pointer = VALUE | json /pointer matches REGEX | body matches REGEX | length MIN..MAX"
        val malformed =
            listOf("", "stat 200", "status", "json", "json /id", "json id integer", "body", "body x", "content-type")
        for (bad in malformed) {
            assertEquals("$NAME:2: $usage", error("# x\n# @expect $bad\nGET /b"), bad)
        }
        assertEquals(
            "$NAME:1: status \"OK\" is not a number: write # @expect status 200 201",
            error("# @expect status OK\nGET /a"),
        )
        assertEquals("$NAME:1: not a final HTTP status: 700", error("# @expect status 700\nGET /a"))
        assertEquals(
            "$NAME:1: \"int\" is not a JSON check: write a type (string number integer boolean object array null " +
                "present), = a JSON value, or matches REGEX",
            error("# @expect json /id int\nGET /a"),
        )
        assertEquals(
            "$NAME:1: length \"10-20\" is not a range of bytes: write # @expect length 10..200 (or one length)",
            error("# @expect length 10-20\nGET /a"),
        )
        assertEquals(
            "$NAME:1: body length range must be 0 <= min <= max, was 20..10",
            error("# @expect length 20..10\nGET /a"),
        )
        assertEquals(
            "$NAME:2: @expect status given twice for one request (first at line 1)",
            error("# @expect status 200\n# @expect status 201\nGET /a"),
        )
    }

    @Test
    fun `a bad regex is refused at its line, in one line`() {
        assertEquals(
            "$NAME:2: bad regex \"a(b\": Unclosed group at index 3",
            error("# x\n# @expect body matches a(b\nGET /a"),
        )
        assertEquals(
            "$NAME:1: bad regex \"[z-a]\": Illegal character range at index 3",
            error("# @expect json /id matches [z-a]\nGET /a"),
        )
    }
}
