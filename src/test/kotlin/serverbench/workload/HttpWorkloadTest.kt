package serverbench.workload

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.io.TempDir
import serverbench.client.Method
import serverbench.client.Request
import serverbench.workload.HttpFiles.NAME
import serverbench.workload.HttpFiles.error
import serverbench.workload.HttpFiles.parse
import serverbench.workload.HttpFiles.request
import serverbench.workload.HttpFiles.wire
import java.nio.file.Files
import java.nio.file.Path
import kotlin.test.assertContentEquals
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** The structure of a `.http` file (docs/http-files.md): requests, names, weights, request lines, headers, bodies. */
class HttpWorkloadTest {
    @Test
    fun `requests are separated by ### lines, named by the text after it, or by @name, which wins`() {
        val w = parse(
            """
            ### List orders
            GET /orders

            ###
            # @name create
            POST /orders

            {"sku":"A-1"}

            ### Not this name
            // @name = remove
            DELETE /orders/1
            ###
            HEAD /orders
            """,
        )
        assertEquals(listOf("List orders", "create", "remove", "HEAD /orders"), w.requests.map { it.name })
        assertEquals(listOf(2, 6, 12, 14), w.requests.map { it.line })
        assertEquals(listOf(Method.GET, Method.POST, Method.DELETE, Method.HEAD), w.requests.map { it.request.method })
        assertEquals(Path.of(NAME), w.file)
    }

    @Test
    fun `a weight is a request's share of the mix, 1 by default`() {
        val w = parse("# @weight 3\nGET /a\n###\nGET /b\n###\n# @weight=10\nGET /c")
        assertEquals(listOf(3, 1, 10), w.requests.map { it.weight })
        for (bad in listOf("0", "-1", "x", "1.5", "")) {
            assertEquals(
                "$NAME:1: weight \"$bad\" is not a whole number >= 1: write # @weight 3",
                error("# @weight $bad\nGET /b"),
            )
        }
        assertEquals(
            "$NAME:2: @weight given twice for one request (first at line 1)",
            error("# @weight 2\n# @weight 3\nGET /a"),
        )
    }

    @Test
    fun `every method of the client, a bare URL a GET, any other method refused with the list`() {
        for (m in Method.entries) assertEquals(m, request("$m /x").method)
        assertEquals(Method.GET, request("/orders?limit=5").method)
        assertEquals(Method.GET, request("http://localhost:8080/orders").method)
        assertEquals(
            "$NAME:3: method OPTIONS is not supported: the methods are GET HEAD POST PUT PATCH DELETE",
            error("GET /a\n###\nOPTIONS /a"),
        )
        assertEquals(
            "$NAME:1: method get is not supported: the methods are GET HEAD POST PUT PATCH DELETE",
            error("get /a"),
        )
        assertEquals("$NAME:1: GET without a URL: write GET /path", error("GET"))
    }

    @Test
    fun `an absolute URL keeps its path and query, the run decides where requests go`() {
        assertEquals("/orders?x=1", request("GET http://{{host}}/orders?x=1", mapOf("host" to "h:1")).path)
        assertEquals("/x", request("POST https://localhost:8080/x").path)
        assertEquals("/", request("GET http://example.org").path)
        assertEquals("/?q=1", request("GET HTTPS://example.org?q=1").path)
        assertEquals("/a/b", request("GET {{base}}/a/b", mapOf("base" to "http://h:8080")).path)
        assertEquals("/a", request("GET /a#section").path, "a fragment is never sent")
        assertEquals("$NAME:1: URL scheme ws: the schemes are http and https", error("GET ws://h/socket"))
        assertEquals(
            "$NAME:1: URL \"orders\" is neither a path (/orders) nor an absolute http:// or https:// URL",
            error("GET orders"),
        )
    }

    @Test
    fun `an HTTP version may close the request line, but the run's protocol decides`() {
        assertEquals("/a", request("GET /a HTTP/1.1").path)
        assertEquals("/a", request("GET /a HTTP/2").path)
        assertEquals("/a", request("GET http://h/a HTTP/2 (Prior Knowledge)").path)
        assertEquals(
            "$NAME:1: HTTP/1.0: the version is HTTP/1.1 or HTTP/2 (the run's protocol decides)",
            error("GET /a HTTP/1.0"),
        )
    }

    @Test
    fun `indented lines starting with ? or & continue the query`() {
        val r = request("GET http://h/api/item\n    ?id=99\n    &content=new HTTP/1.1\nAccept: */*")
        assertEquals("/api/item?id=99&content=new", r.path)
        assertEquals(mapOf("Accept" to "*/*"), r.headers)
        assertEquals(
            "$NAME:2: not a header (Name: value); the body comes after a blank line; " +
                "an indented line continues the query with ? or &",
            error("GET /api\n    /item"),
        )
    }

    @Test
    fun `headers follow the request line, Content-Type is the request's, Host and Content-Length are dropped`() {
        val r = request(
            """
            POST /orders
            X-Tenant: acme
            Content-Type: application/xml
            Host: localhost:8080
            Content-Length: 999
            Accept:   text/plain  

            <order/>
            """,
        )
        assertEquals(mapOf("X-Tenant" to "acme", "Accept" to "text/plain"), r.headers)
        assertEquals("application/xml", r.contentType)
        assertEquals("<order/>", r.bodyTemplate)
        val wire = wire(r)
        assertTrue("Content-Length: 8\r\n" in wire && "Host: localhost:8080\r\n" in wire, wire)
        assertEquals(Request.JSON, request("POST /o\n\n{}").contentType, "without Content-Type, the client's default")
    }

    @Test
    fun `a header that cannot be sent is refused at its line`() {
        assertEquals(
            "$NAME:3: request header Transfer-Encoding is written by the client itself",
            error("POST /a\nX-A: 1\nTransfer-Encoding: chunked\n\n{}"),
        )
        assertEquals(
            "$NAME:2: request header \"X-A: a\\u0001b\": a name must be an HTTP token and a value one line of " +
                "printable ASCII (no CR or LF)",
            error("GET /a\nX-A: a\u0001b"),
        )
        assertEquals("$NAME:3: header x-a given twice: the client sends one of each", error("GET /a\nX-A: 1\nx-a: 2"))
        assertEquals(
            "$NAME:3: header content-type given twice: the client sends one of each",
            error("POST /a\nContent-Type: a/b\ncontent-type: c/d"),
        )
        for (notHeader in listOf("{\"a\":1}", "X A: 1", "no colon")) {
            assertEquals(
                "$NAME:2: not a header (Name: value); the body comes after a blank line",
                error("POST /a\n$notHeader"),
            )
        }
        assertEquals(mapOf("X-acme" to "1"), request("@t = acme\nGET /a\nX-{{t}}: 1").headers)
    }

    @Test
    fun `the body runs from the blank line after the headers to the next ###, blank lines around it trimmed`() {
        val w = parse("POST /a\nX-A: 1\n\n\n{\n  \"a\": 1\n}\n\n\n###\nPUT /b\n\n\n")
        assertEquals("{\n  \"a\": 1\n}", w.requests[0].request.bodyTemplate)
        assertNull(w.requests[1].request.bodyTemplate)
        assertTrue(!w.requests[1].request.hasBody)
        assertTrue("Content-Length: 0\r\n" in wire(w.requests[1].request), "a PUT without a body")
        assertEquals(
            "$NAME:3: a GET request carries no body (the body follows the blank line after headers)",
            error("GET /a\n\n{}"),
        )
    }

    @Test
    fun `comment lines and blank lines around a body are not part of it`() {
        val w = parse("POST /a\n\n// the order\n{}\n\n# the next request is disabled\n// GET /b\n###\nGET /c\n\n# none")
        assertEquals("{}", w.requests[0].request.bodyTemplate)
        assertTrue(!w.requests[1].request.hasBody)
        assertEquals("a\n# not a comment\nb", request("POST /a\n\na\n# not a comment\nb").bodyTemplate)
    }

    @Test
    fun `CRLF line ends are line ends, and a byte order mark is skipped`() {
        val w = parse("\uFEFF### One\r\nPOST /a\r\nX-A: 1\r\n\r\n{\r\n\"a\": 1\r\n}\r\n###\r\nGET /b\r\n")
        assertEquals("One", w.requests[0].name)
        assertEquals(mapOf("X-A" to "1"), w.requests[0].request.headers)
        assertEquals("{\n\"a\": 1\n}", w.requests[0].request.bodyTemplate)
        assertEquals(listOf(2, 9), w.requests.map { it.line })
        assertEquals(
            "$NAME:3: method get is not supported: the methods are GET HEAD POST PUT PATCH DELETE",
            error("GET /a\r\n###\r\nget /b\r\n"),
        )
    }

    @Test
    fun `a body from a file is read beside the http file, as bytes with lt, with variables with lt-at`(
        @TempDir dir: Path,
    ) {
        Files.write(dir.resolve("order.json"), byteArrayOf('{'.code.toByte(), '}'.code.toByte(), 0xff.toByte()))
        Files.writeString(dir.resolve("tmpl.json"), "{\"id\":\"{{\$uuid}}\",\"t\":\"{{tenant}}\"}")
        val w = parse(
            "POST /a\n\n< ./order.json\n\n###\nPOST /b\n\n<@ tmpl.json\n###\nPOST /c\n\n<order>x</order>",
            mapOf("tenant" to "acme"),
            dir,
        )
        assertContentEquals(
            byteArrayOf('{'.code.toByte(), '}'.code.toByte(), 0xff.toByte()),
            w.requests[0].request.body,
        )
        assertNull(w.requests[0].request.bodyTemplate)
        assertEquals("{\"id\":\"{{uuid}}\",\"t\":\"acme\"}", w.requests[1].request.bodyTemplate)
        assertEquals("<order>x</order>", w.requests[2].request.bodyTemplate, "a body line starting with < is text")
        assertEquals(
            "$NAME:3: cannot read the body's file ${dir.resolve("gone.json")}: NoSuchFileException",
            error("POST /a\n\n< gone.json", baseDir = dir),
        )
        assertEquals(
            "$NAME:4: a body read from a file (< path) is the body's only line",
            error("POST /a\n\n< order.json\n{}", baseDir = dir),
        )
        assertEquals(
            "$NAME:3: a body read from a file (< path) needs the .http file's directory",
            error("POST /a\n\n< order.json"),
        )
    }

    @Test
    fun `load reads the file and names it in errors`(@TempDir dir: Path) {
        val file = dir.resolve("shop.http")
        Files.writeString(dir.resolve("body.json"), "{}")
        Files.writeString(file, "POST /a\n\n< body.json\n")
        val w = HttpWorkload.load(file)
        assertEquals(file, w.file)
        assertEquals("{}", String(w.requests.single().request.body!!))
        Files.writeString(file, "GET /a\n\n{}\n")
        assertEquals(
            "$file:3: a GET request carries no body (the body follows the blank line after headers)",
            assertThrowsMessage { HttpWorkload.load(file) },
        )
        assertEquals(
            "${dir.resolve("none.http")}: no such file",
            assertThrowsMessage { HttpWorkload.load(dir.resolve("none.http")) },
        )
    }

    @Test
    fun `comments are lines starting with # or slashes, before the request line and among headers`() {
        val r = request("# a comment\n// another\n   # indented\nGET /a\n# between headers\nX-A: 1\n// too\nX-B: 2")
        assertEquals(mapOf("X-A" to "1", "X-B" to "2"), r.headers)
    }

    @Test
    fun `tags go before the request line, unknown ones refused, IntelliJ's harmless ones ignored`() {
        assertEquals("/a", request("# @no-redirect\n# @no-cookie-jar\n// @timeout 5\nGET /a").path)
        assertEquals(
            "$NAME:1: unknown tag @prompt: the tags are @name, @weight and @expect (and IntelliJ's @no-redirect, " +
                "@no-cookie-jar, @no-log, @no-auto-encoding, @timeout, @connection-timeout, which change nothing here)",
            error("# @prompt token\nGET /a"),
        )
        assertEquals(
            "$NAME:2: @expect after the request line: a request's tags go before its request line",
            error("GET /a\n# @expect status 200"),
        )
        assertEquals(
            "$NAME:3: a tag with no request line after it (METHOD URL) in its block",
            error("GET /a\n###\n# @weight 2\n###\nGET /b"),
        )
        assertEquals("$NAME:1: @name needs a name: write # @name NAME", error("# @name\nGET /a"))
        assertEquals(
            "$NAME:3: @expect after the request line: a request's tags go before its request line",
            error("GET /a\n\n# @expect status 201\n###\nPOST /b"),
            "a tag before the ### that should precede it",
        )
        assertEquals(
            "$NAME:4: @weight after the request line: a request's tags go before its request line",
            error("GET /a\n\n>> out.json\n# @weight 2"),
        )
    }

    @Test
    fun `response handler scripts are refused, redirects and IntelliJ's response links ignored`() {
        val w = parse("POST /a\n\n{}\n\n>> out.json\n<> 2026-01-01T000000.200.json\n###\nGET /b\n>>! b.json")
        assertEquals("{}", w.requests[0].request.bodyTemplate)
        assertEquals(2, w.requests.size)
        val script = "$NAME:4: response handler scripts (> {% ... %}, > file.js) are not supported: " +
            "declare the response's checks with # @expect before the request line"
        assertEquals(script, error("POST /a\n\n{}\n> {% client.test(\"ok\", function() {}); %}"))
        assertEquals(script.replace(":4:", ":2:"), error("GET /a\n> check.js"))
        assertEquals(
            "$NAME:3: text after a response redirect (>>) or link (<>): end the request with ###",
            error("GET /a\n>> out.json\nGET /b"),
        )
    }

    @Test
    fun `a file without a request, or two requests of one name, is refused`() {
        assertEquals(
            "$NAME:1: no request in the file: a request is a line METHOD URL, such as GET /orders",
            error("# only comments\n@host = h\n###\n\n"),
        )
        assertEquals(
            "$NAME:3: request name \"GET /a\" is taken by the request at line 1: name one with # @name NAME",
            error("GET /a\n###\nGET /a"),
        )
        assertEquals(2, parse("GET /a\n###\n# @name again\nGET /a").requests.size)
    }

    @Test
    fun `a request the client refuses is refused at its line`() {
        assertEquals(
            "$NAME:2: request path must start with '/' and hold no space or control character: /a b",
            error("# x\nGET /a b"),
        )
        assertEquals(
            "$NAME:2: {{\$uuid}} in a header: headers are sent as written, the same each time; a per-request value " +
                "goes in the URL or the body",
            error("GET /a\nX-Id: {{\$uuid}}"),
        )
    }

    private fun assertThrowsMessage(block: () -> Unit): String = assertThrows<HttpFileException> { block() }.message!!
}
