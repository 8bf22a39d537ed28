package serverbench.workload

/** One line of a `.http` file, numbered from 1 as editors number them. */
internal class Line(val number: Int, val text: String)

/** A variable defined in the file: `@name = value`, at [line]. */
internal class Definition(val name: String, val value: String, val line: Int)

/** The tags of a request: the comments before its request line that start with `@`. */
internal class Tags(private val file: String) {
    var name: String? = null
        private set
    var weight: Int = 1
        private set
    val checks = HttpChecks(file)

    /** The first tag's line: where a tag with no request after it is reported. */
    var firstLine: Int? = null
        private set
    private val seen = HashMap<String, Int>()

    /** [word] (`name`, `weight`, `expect`, an ignored one) with its [rest], from [line]. */
    fun add(word: String, rest: String, line: Int) {
        if (firstLine == null) firstLine = line
        when (word) {
            "name" -> name = once(word, line) {
                rest.removePrefix("=").trim().ifEmpty { fail(line, "@name needs a name: write # @name NAME") }
            }

            "weight" -> weight = once(word, line) {
                rest.removePrefix("=").trim().toIntOrNull()?.takeIf { it >= 1 }
                    ?: fail(line, "weight \"$rest\" is not a whole number >= 1: write # @weight 3")
            }

            "expect" -> checks.add(rest, line)

            in IGNORED -> Unit

            else -> fail(
                line,
                "unknown tag @$word: the tags are @name, @weight and @expect " +
                    "(and IntelliJ's ${IGNORED.joinToString { "@$it" }}, which change nothing here)",
            )
        }
    }

    private fun <T> once(word: String, line: Int, value: () -> T): T {
        seen.put(word, line)?.let { fail(line, "@$word given twice for one request (first at line $it)") }
        return value()
    }

    private fun fail(line: Int, what: String): Nothing = throw HttpFileException(file, line, what)

    companion object {
        /**
         * IntelliJ's tags that change nothing in what serverbench sends: the client never follows a redirect, keeps
         * no cookie, logs no response, sends the URL as written, and the run sets its own timeouts.
         */
        val IGNORED =
            listOf("no-redirect", "no-cookie-jar", "no-log", "no-auto-encoding", "timeout", "connection-timeout")
    }
}

/** A request as written, before its variables are substituted: the parts of one block between `###` lines. */
internal class RawRequest(
    /** The text after the block's `###`, or null. */
    val separatorName: String?,
    val tags: Tags,
    /** The request line, its indented query continuation lines appended, at the first one's number. */
    val requestLine: Line,
    val headers: List<Line>,
    /** The body's lines, without the blank lines around it; empty: no body. */
    val body: List<Line>,
)

/**
 * Reads the blocks of a `.http` file (the lines between `###` separators) into [RawRequest]s and the variable
 * definitions: the syntax's structure, with no variable substituted yet (the definitions are file-wide).
 */
internal class HttpBlocks(private val file: String) {
    val definitions = ArrayList<Definition>()
    val requests = ArrayList<RawRequest>()

    fun read(text: String) {
        val lines = text.removePrefix("\uFEFF").lines().mapIndexed { i, s -> Line(i + 1, s) }
        var separatorName: String? = null
        var block = ArrayList<Line>()
        for (line in lines) {
            if (line.text.startsWith(SEPARATOR)) {
                readBlock(separatorName, block)
                separatorName = line.text.removePrefix(SEPARATOR).trim().ifEmpty { null }
                block = ArrayList()
            } else {
                block += line
            }
        }
        readBlock(separatorName, block)
    }

    private fun readBlock(separatorName: String?, lines: List<Line>) {
        val tags = Tags(file)
        val at = Cursor(lines)
        while (at.more && preamble(at.line, tags)) at.next()
        if (!at.more) {
            tags.firstLine?.let { fail(it, "a tag with no request line after it (METHOD URL) in its block") }
            return
        }
        val requestLine = requestLine(at)
        val headers = headers(at)
        val body = body(at)
        afterBody(at.rest())
        requests += RawRequest(separatorName, tags, requestLine, headers, body)
    }

    /** The lines of a block, read in order. */
    private class Cursor(private val lines: List<Line>) {
        private var i = 0
        val more: Boolean get() = i < lines.size
        val line: Line get() = lines[i]

        fun next(): Line = lines[i++]

        fun rest(): List<Line> = lines.subList(i, lines.size)
    }

    /** The request line, with its query continuation lines appended. */
    private fun requestLine(at: Cursor): Line {
        val first = at.next()
        val text = StringBuilder(first.text.trim())
        while (at.more && isQueryContinuation(at.line.text)) text.append(at.next().text.trim())
        return Line(first.number, text.toString())
    }

    /** The header lines, up to a blank line (or a response redirect), comments left out. */
    private fun headers(at: Cursor): List<Line> {
        val headers = ArrayList<Line>()
        while (at.more && at.line.text.isNotBlank() && !at.line.text.startsWith(">")) {
            val line = at.next()
            if (comment(line.text) == null) headers += line else refuseTag(line)
        }
        return headers
    }

    /** The body's lines, up to a response redirect or link, without the blank and comment lines around it. */
    private fun body(at: Cursor): List<Line> {
        val body = ArrayList<Line>()
        while (at.more && !at.line.text.startsWith(">") && !at.line.text.startsWith(PREVIOUS)) body += at.next()
        // Comments between requests (a disabled one, a note on the next) are not the body; inside it, text is text.
        val outside = { line: Line -> line.text.isBlank() || comment(line.text) != null }
        val trimmed = body.dropWhile(outside).dropLastWhile(outside)
        (body.takeWhile(outside) + body.takeLastWhile(outside)).filter {
            it.text.isNotBlank()
        }.forEach { refuseTag(it) }
        return trimmed
    }

    /** Reads [line] if it comes before the request line (blank, a comment, a definition); false at the request line. */
    private fun preamble(line: Line, tags: Tags): Boolean {
        val text = line.text.trim()
        val comment = comment(text)
        when {
            text.isEmpty() -> Unit
            comment != null -> tag(comment)?.let { (word, rest) -> tags.add(word, rest, line.number) }
            text.startsWith("@") -> definitions += definition(text, line.number)
            else -> return false
        }
        return true
    }

    private fun definition(text: String, line: Int): Definition {
        val m = DEFINITION.matchEntire(text) ?: fail(line, "not a variable definition: write @name = value")
        return Definition(m.groupValues[1], m.groupValues[2].trim(), line)
    }

    /** A tag after the request line would silently check nothing: it belongs before it. */
    private fun refuseTag(line: Line) {
        val (word, _) = tag(comment(line.text.trim())!!) ?: return
        fail(line.number, "@$word after the request line: a request's tags go before its request line")
    }

    /**
     * What may follow the body: IntelliJ's response redirects (`>> file`, `>>! file`) and previous-response links
     * (`<> file`), ignored, since a benchmark keeps no response; its response handler scripts are refused, since the
     * checks they hold would not run.
     */
    private fun afterBody(lines: List<Line>) {
        for (line in lines) {
            val text = line.text
            when {
                text.isBlank() -> Unit

                comment(text) != null -> refuseTag(line)

                text.startsWith(">>") || text.startsWith(PREVIOUS) -> Unit

                text.startsWith(">") -> fail(
                    line.number,
                    "response handler scripts (> {% ... %}, > file.js) are not supported: " +
                        "declare the response's checks with # @expect before the request line",
                )

                else -> fail(line.number, "text after a response redirect (>>) or link (<>): end the request with ###")
            }
        }
    }

    private fun fail(line: Int, what: String): Nothing = throw HttpFileException(file, line, what)

    companion object {
        const val SEPARATOR = "###"

        /** IntelliJ's link to a saved earlier response, which it appends after a request it ran. */
        private const val PREVIOUS = "<>"

        private val DEFINITION = Regex("""@([A-Za-z0-9_.\-]+)\s*=(.*)""")
        private val TAG = Regex("""@([A-Za-z][A-Za-z0-9\-]*)(.*)""")

        /** The text of a comment line (`# ...`, `// ...`), or null for any other line. */
        fun comment(text: String): String? {
            val t = text.trimStart()
            return when {
                t.startsWith("#") -> t.removePrefix("#").trim()
                t.startsWith("//") -> t.removePrefix("//").trim()
                else -> null
            }
        }

        /** The tag word and the rest of a comment's text that starts with `@`, or null for a plain comment. */
        fun tag(comment: String): Pair<String, String>? =
            TAG.matchEntire(comment)?.let { it.groupValues[1] to it.groupValues[2].trim() }

        /** IntelliJ's multi-line URL: a line indented under the request line continues the query (`?a=1`, `&b=2`). */
        fun isQueryContinuation(text: String): Boolean =
            text.isNotEmpty() && text[0].isWhitespace() && text.trim().let { it.startsWith("?") || it.startsWith("&") }
    }
}
