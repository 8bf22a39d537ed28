package serverbench.workload

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.io.TempDir
import serverbench.workload.HttpFiles.NAME
import serverbench.workload.HttpFiles.error
import serverbench.workload.HttpFiles.parse
import serverbench.workload.HttpFiles.request
import serverbench.workload.HttpFiles.wire
import java.nio.file.Files
import java.nio.file.Path
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** `{{...}}` in a `.http` file: in-file definitions, the variables a run passes, dynamic variables, the escape. */
class HttpVariablesTest {
    @Test
    fun `in-file definitions, before or between requests, fill the URL, headers and body, file-wide`() {
        val w = parse(
            """
            @host = localhost:8080
            @tenant=acme
            @base = http://{{host}}/api

            GET {{base}}/orders
            X-Tenant: {{ tenant }}

            ###
            @sku = A-{{n}}
            POST {{base}}/orders

            {"sku":"{{sku}}","tenant":"{{tenant}}"}
            ###
            @n = 1
            GET /late/{{n}}
            """,
        )
        assertEquals("/api/orders", w.requests[0].request.path)
        assertEquals(mapOf("X-Tenant" to "acme"), w.requests[0].request.headers)
        assertEquals("""{"sku":"A-1","tenant":"acme"}""", w.requests[1].request.bodyTemplate)
        assertEquals("/late/1", w.requests[2].request.path, "defined after its first use: definitions are file-wide")
    }

    @Test
    fun `the variables passed in win over the file's, even inside another definition`() {
        val text = "@host = file\n@base = http://{{host}}\nGET {{base}}/a\nX-Host: {{host}}"
        assertEquals(mapOf("X-Host" to "file"), request(text).headers)
        assertEquals(mapOf("X-Host" to "given"), request(text, mapOf("host" to "given")).headers)
        assertEquals("/b/a", request(text, mapOf("base" to "http://x/b")).path)
        val literal = request("GET /x{{v}}", mapOf("v" to "{{y}}"))
        assertEquals("/x\\{{y}}", literal.path, "a passed value is literal text, escaped for the client's template")
        assertTrue(wire(literal).startsWith("GET /x{{y}} HTTP/1.1\r\n"), wire(literal))
    }

    @Test
    fun `dynamic variables become the client's per-request placeholders`() {
        val r = request(
            "POST /orders/{{\$seq}}\n\n" +
                "{\"id\":\"{{\$uuid}}\",\"ref\":\"{{\$random.uuid}}\",\"g\":\"{{\$guid}}\",\"n\":{{\$randomInt}}}",
        )
        assertEquals("/orders/{{seq}}", r.path)
        assertEquals("""{"id":"{{uuid}}","ref":"{{uuid}}","g":"{{uuid}}","n":{{random}}}""", r.bodyTemplate)
        assertTrue(wire(r).startsWith("POST /orders/1 HTTP/1.1\r\n"), wire(r))
        val supported =
            "the dynamic variables are {{\$uuid}}, {{\$random.uuid}}, {{\$guid}}, {{\$randomInt}}, {{\$seq}}"
        assertEquals("$NAME:3: {{\$timestamp}} is not supported: $supported", error("POST /a\n\n{{\$timestamp}}"))
        assertEquals("$NAME:1: {{\$isoTimestamp}} is not supported: $supported", error("GET /a?t={{\$isoTimestamp}}"))
        assertEquals("$NAME:1: {{\$randomInt 1 9}} is not supported: $supported", error("GET /a?t={{\$randomInt 1 9}}"))
    }

    @Test
    fun `an unknown variable says where to define it`() {
        assertEquals(
            "$NAME:3: unknown variable {{nam}}: define it with @nam = value in the file, in the variables file " +
                "(-Dserverbench.httpVars), or with -Dserverbench.var.nam=...",
            error("@name = x\n###\nGET /{{nam}}"),
        )
        assertEquals(
            "$NAME:1: unknown variable {{seq}}: define it with @seq = value in the file, in the variables file " +
                "(-Dserverbench.httpVars), or with -Dserverbench.var.seq=... (the per-request {{seq}} is written " +
                "{{\$seq}})",
            error("GET /{{seq}}"),
        )
        assertEquals(
            "$NAME:1: unknown variable {{x}}: define it with @x = value in the file, in the variables file " +
                "(-Dserverbench.httpVars), or with -Dserverbench.var.x=...",
            error("@a = {{x}}\nGET /{{a}}"),
            "reported where the fix is: the definition",
        )
    }

    @Test
    fun `a literal double brace is escaped, an unclosed one refused`() {
        val escaped = request("POST /a\n\n{\"t\":\"\\{{not a variable}}\"}")
        assertEquals("{\"t\":\"\\{{not a variable}}\"}", escaped.bodyTemplate)
        assertEquals("{\"t\":\"{{not a variable}}\"}", wire(escaped).substringAfter("\r\n\r\n"))
        assertEquals("$NAME:3: {{ with no }} after it (a literal {{ is written \\{{)", error("POST /a\n\n{{seq"))
        assertEquals("X-A: {{x}}", wire(request("GET /a\nX-A: \\{{x}}")).lines().first { it.startsWith("X-A") })
    }

    @Test
    fun `definitions are checked - shape, duplicates, cycles`() {
        assertEquals("$NAME:1: not a variable definition: write @name = value", error("@host localhost\nGET /a"))
        assertEquals(
            "$NAME:4: variable @a defined again (first at line 1)",
            error("@a = 1\nGET /a\n###\n@a = 2\nGET /b"),
        )
        assertEquals(
            "$NAME:1: variable @a refers to itself: a -> b -> a",
            error("@a = {{b}}\n@b = {{a}}\nGET /{{a}}"),
        )
    }

    private fun props(vararg pairs: Pair<String, String>): Pair<(String) -> String?, () -> Collection<String>> {
        val map = mapOf(*pairs)
        return map::get to { map.keys }
    }

    private fun gather(httpFile: Path, vararg pairs: Pair<String, String>): Map<String, String> {
        val (property, names) = props(*pairs)
        return HttpVariables.gather(httpFile, property, names)
    }

    private fun gatherError(httpFile: Path, vararg pairs: Pair<String, String>): String {
        val message = assertThrows<HttpFileException> { gather(httpFile, *pairs) }.message!!
        assertEquals(1, message.lines().size, message)
        return message
    }

    @Test
    fun `-D variables win over the variables file, which wins over the file's own`(@TempDir dir: Path) {
        val vars = dir.resolve("vars.json")
        Files.writeString(vars, """{"host": "from-file", "port": 8080, "tls": false, "tenant": "t1"}""")
        val http = dir.resolve("orders.http")
        val variables = gather(
            http,
            "serverbench.httpVars" to "$vars",
            "serverbench.var.host" to "from-d",
            "serverbench.var.extra" to "e",
            "other.property" to "x",
        )
        assertEquals(
            mapOf("host" to "from-d", "port" to "8080", "tls" to "false", "tenant" to "t1", "extra" to "e"),
            variables,
        )
        Files.writeString(http, "@tenant = in-file\n@only = here\nGET /{{host}}/{{port}}/{{tenant}}/{{only}}")
        assertEquals("/from-d/8080/t1/here", HttpWorkload.load(http, variables).requests.single().request.path)
    }

    @Test
    fun `IntelliJ's environments - one chosen by -D, the only one by default, shared defaults under it`(
        @TempDir dir: Path,
    ) {
        val vars = dir.resolve("env.json")
        val http = dir.resolve("orders.http")
        val file = "serverbench.httpVars" to "$vars"
        Files.writeString(
            vars,
            """{"${'$'}shared": {"tenant": "shared", "host": "s"}, "dev": {"host": "dev-host", "ssl": {"x": 1}},
               "prod": {"host": "prod-host", "tenant": "p"}}""",
        )
        assertEquals(
            mapOf("tenant" to "shared", "host" to "dev-host"),
            gather(http, file, "serverbench.httpEnv" to "dev"),
        )
        assertEquals(mapOf("tenant" to "p", "host" to "prod-host"), gather(http, file, "serverbench.httpEnv" to "prod"))
        assertEquals(
            "$vars (-Dserverbench.httpVars): has several environments (dev, prod): choose one with " +
                "-Dserverbench.httpEnv=NAME",
            gatherError(http, file),
        )
        assertEquals(
            "$vars (-Dserverbench.httpVars): no environment \"qa\" (-Dserverbench.httpEnv); it has dev, prod",
            gatherError(http, file, "serverbench.httpEnv" to "qa"),
        )
        Files.writeString(vars, """{"dev": {"host": "only"}}""")
        assertEquals(mapOf("host" to "only"), gather(http, file))
    }

    @Test
    fun `an http-client env json beside the http file is read when no variables file is given`(@TempDir dir: Path) {
        val http = dir.resolve("orders.http")
        assertEquals(emptyMap(), gather(http))
        Files.writeString(dir.resolve("http-client.env.json"), """{"dev": {"host": "beside"}}""")
        assertEquals(mapOf("host" to "beside"), gather(http))
        val other = dir.resolve("other.json")
        Files.writeString(other, """{"host": "given"}""")
        assertEquals(mapOf("host" to "given"), gather(http, "serverbench.httpVars" to "$other"))
        Files.writeString(dir.resolve("http-client.env.json"), """{"dev": {"host": "a"}, "qa": {"host": "b"}}""")
        assertEquals(
            "${dir.resolve("http-client.env.json")}: has several environments (dev, qa): choose one with " +
                "-Dserverbench.httpEnv=NAME",
            gatherError(http),
        )
    }

    @Test
    fun `a variables file that is missing, not JSON, or mixes shapes is refused in one line`(@TempDir dir: Path) {
        val http = dir.resolve("orders.http")
        val vars = dir.resolve("vars.json")
        val file = "serverbench.httpVars" to "$vars"
        assertEquals("$vars (-Dserverbench.httpVars): no such file", gatherError(http, file))
        Files.writeString(vars, "{\n  \"host\": \"a\",\n  oops\n}")
        assertTrue(gatherError(http, file).startsWith("$vars:3: not JSON: "), gatherError(http, file))
        Files.writeString(vars, "[1]")
        assertEquals(
            "$vars (-Dserverbench.httpVars): not a JSON object of variables or of environments",
            gatherError(http, file),
        )
        Files.writeString(vars, """{"dev": {"host": "a"}, "host": "b"}""")
        assertEquals(
            "$vars (-Dserverbench.httpVars): mixes environments (objects) with variables (host): put the " +
                "variables in an environment, or use a flat object",
            gatherError(http, file),
        )
        Files.writeString(vars, """{"host": "b"}""")
        assertEquals(
            "$vars (-Dserverbench.httpVars): -Dserverbench.httpEnv=dev, but the file has no environments",
            gatherError(http, file, "serverbench.httpEnv" to "dev"),
        )
    }
}
