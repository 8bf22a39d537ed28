package serverbench.workload

import serverbench.client.Method
import serverbench.client.Request
import serverbench.client.RequestHeaders
import java.io.IOException
import java.nio.file.Files
import java.nio.file.Path
import java.util.Locale

/**
 * Turns a `.http` file's text into [HttpWorkload.Entry]s (the syntax: docs/http-files.md): [HttpBlocks] reads its
 * structure, [HttpSubstitution] its variables, and each request's parts become a [Request], whose own refusals (a
 * header the client writes itself, a bad placeholder) are reported at the request's line.
 */
internal class HttpFileParser(
    private val file: String,
    private val variables: Map<String, String>,
    private val baseDir: Path?,
) {
    fun parse(text: String): List<HttpWorkload.Entry> {
        val blocks = HttpBlocks(file).apply { read(text) }
        val definitions = LinkedHashMap<String, Definition>()
        for (d in blocks.definitions) {
            definitions.put(d.name, d)?.let {
                fail(d.line, "variable @${d.name} defined again (first at line ${it.line})")
            }
        }
        val substitution = HttpSubstitution(file, variables, definitions)
        val entries = blocks.requests.map { RequestMaker(it, substitution).entry() }
        if (entries.isEmpty()) fail(1, "no request in the file: a request is a line METHOD URL, such as GET /orders")
        val names = HashMap<String, Int>()
        for (e in entries) {
            names.put(e.name, e.line)?.let {
                fail(
                    e.line,
                    "request name \"${e.name}\" is taken by the request at line $it: name one with # @name NAME",
                )
            }
        }
        return entries
    }

    private fun fail(line: Int, what: String): Nothing = throw HttpFileException(file, line, what)

    /** One [RawRequest] made a [Request]. */
    private inner class RequestMaker(private val raw: RawRequest, private val substitution: HttpSubstitution) {
        private val line = raw.requestLine.number
        private var contentType: String? = null
        private val headers = LinkedHashMap<String, String>()

        fun entry(): HttpWorkload.Entry {
            val (method, url) = requestLine(raw.requestLine.text)
            val path = path(substitution.template(url, line))
            raw.headers.forEach { header(it) }
            val (bytes, template) = body(method)
            val request = try {
                Request(
                    path,
                    "",
                    body = bytes,
                    contentType = contentType ?: Request.JSON,
                    bodyTemplate = template,
                    method = method,
                    headers = headers,
                    expect = raw.tags.checks.expectation(),
                )
            } catch (e: IllegalArgumentException) {
                fail(line, e.message ?: "$e")
            }
            val name = raw.tags.name ?: raw.separatorName ?: "$method $path"
            return HttpWorkload.Entry(name, raw.tags.weight, request, line)
        }

        /**
         * The body: a file's bytes (`< path`, sent as they are), or a template (written in the file, or a file's text
         * read with `<@ path`, its variables substituted); both null without a body.
         */
        private fun body(method: Method): Pair<ByteArray?, String?> {
            val first = raw.body.firstOrNull() ?: return null to null
            if (!method.bodyAllowed) {
                fail(first.number, "a $method request carries no body (the body follows the blank line after headers)")
            }
            val file = FILE_BODY.matchEntire(first.text)
                ?: return null to substitution.template(raw.body.joinToString("\n") { it.text }, first.number)
            if (raw.body.size > 1) fail(raw.body[1].number, "a body read from a file (< path) is the body's only line")
            val bytes = read(file.groupValues[2], first)
            return if (file.groupValues[1].isEmpty()) {
                bytes to null
            } else {
                null to substitution.template(String(bytes, Charsets.UTF_8), first.number)
            }
        }

        /** The method and the URL as written: `METHOD URL [HTTP/1.1|HTTP/2]`, or a bare URL for a GET. */
        private fun requestLine(text: String): Pair<Method, String> {
            val version = VERSION.find(text)
            version?.groupValues?.get(1)?.let {
                if (it !in
                    VERSIONS
                ) {
                    fail(line, "HTTP/$it: the version is HTTP/1.1 or HTTP/2 (the run's protocol decides)")
                }
            }
            val rest = if (version == null) text else text.substring(0, version.range.first)
            val m = METHOD_URL.matchEntire(rest)
            if (m == null) {
                if (Method.entries.any { it.name == rest }) fail(line, "$rest without a URL: write $rest /path")
                return Method.GET to rest
            }
            val word = m.groupValues[1]
            val method = Method.entries.firstOrNull { it.name == word }
                ?: fail(line, "method $word is not supported: the methods are ${Method.entries.joinToString(" ")}")
            return method to m.groupValues[2]
        }

        /** [url]'s path and query: an absolute URL's scheme and authority go, as does a fragment (never sent). */
        private fun path(url: String): String {
            val absolute = ABSOLUTE.find(url)
            if (absolute == null && !url.startsWith("/")) {
                fail(line, "URL \"$url\" is neither a path (/orders) nor an absolute http:// or https:// URL")
            }
            absolute?.groupValues?.get(1)?.let {
                if (it.lowercase(Locale.ROOT) !in SCHEMES) fail(line, "URL scheme $it: the schemes are http and https")
            }
            val path = url.substring(absolute?.range?.last?.plus(1) ?: 0).substringBefore('#')
            return if (path.startsWith("/")) path else "/$path"
        }

        private fun header(h: Line) {
            val colon = h.text.indexOf(':')
            if (colon <= 0 || !HEADER_NAME.matches(h.text.substring(0, colon).trim())) {
                val hint = if (h.text[0].isWhitespace()) "; an indented line continues the query with ? or &" else ""
                fail(h.number, "not a header (Name: value); the body comes after a blank line$hint")
            }
            val name = substitution.literal(h.text.substring(0, colon).trim(), h.number)
            val value = substitution.literal(h.text.substring(colon + 1).trim(), h.number)
            val lower = name.lowercase(Locale.ROOT)
            val first = if (lower == "content-type") {
                contentType?.let { name }
            } else {
                headers.keys.firstOrNull {
                    it.lowercase(Locale.ROOT) == lower
                }
            }
            if (first != null) fail(h.number, "header $name given twice: the client sends one of each")
            when (lower) {
                // The client writes these from the run's target and the body; a file's own copy says nothing more.
                in DROPPED -> Unit

                "content-type" -> contentType = value

                else -> headers[name] = checked(name, value, h.number)
            }
        }

        /** [value], if the client sends [name] with it (not a header it writes itself, one line of ASCII). */
        private fun checked(name: String, value: String, at: Int): String {
            try {
                RequestHeaders.check(mapOf(name to value))
            } catch (e: IllegalArgumentException) {
                fail(at, e.message ?: "$e")
            }
            return value
        }

        /** The bytes of a body's `< path` (relative to the `.http` file's directory), [at] its line. */
        private fun read(written: String, at: Line): ByteArray {
            val dir = baseDir ?: fail(at.number, "a body read from a file (< path) needs the .http file's directory")
            val path = dir.resolve(substitution.literal(written.trim(), at.number))
            return try {
                Files.readAllBytes(path)
            } catch (e: IOException) {
                fail(at.number, "cannot read the body's file $path: ${e.javaClass.simpleName}")
            }
        }
    }

    private companion object {
        val VERSION = Regex("""\s+HTTP/(\S+)(\s+\(Prior Knowledge\))?$""")
        val VERSIONS = setOf("1.1", "2")

        /** An HTTP token (RFC 9110 `tchar`s), or variables making one: not a JSON body missing its blank line. */
        val HEADER_NAME = Regex("""[A-Za-z0-9!#$%&'*+.^_`|~{}\-]+""")
        val METHOD_URL = Regex("""([A-Za-z]+)\s+(.+)""")
        val ABSOLUTE = Regex("""^([A-Za-z][A-Za-z0-9+.\-]*)://[^/?#]*""")
        val SCHEMES = setOf("http", "https")

        /** `< path`: the body is the file's bytes, as they are; `<@ path`: its text, with variables substituted. */
        val FILE_BODY = Regex("""<(@?)\s+(\S.*)""")

        /** The client writes these itself, from where the run sends and the body's length. */
        val DROPPED = setOf("host", "content-length")
    }
}
