package serverbench.workload

import serverbench.client.Expect
import serverbench.client.JsonType
import serverbench.client.JsonValueCheck
import serverbench.client.ResponseExpectation
import tools.jackson.core.JacksonException
import tools.jackson.databind.DeserializationFeature
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.util.regex.PatternSyntaxException

/**
 * A request's `# @expect` comments, one check per line (docs/http-files.md, "Checks"), gathered into the
 * [ResponseExpectation] the client holds its responses to. Each line is read when met, so a malformed one fails at
 * its own line number.
 */
internal class HttpChecks(private val file: String) {
    private var expectation: ResponseExpectation = Expect.maxBodyBytes(ResponseExpectation.DEFAULT_MAX_BODY_BYTES)

    /** The kinds declared once per request, by the line that declared them. */
    private val declared = HashMap<String, Int>()

    /** Whether any check reads the body; without one, any body passes. */
    private var checksBody = false

    /**
     * What the responses must be. With no body check declared, any body passes: an expectation with none would
     * compare the body with the request's expected one (empty), so an unbounded length range stands in for "any".
     */
    fun expectation(): ResponseExpectation = if (checksBody) expectation else expectation.bodyLength(0, Long.MAX_VALUE)

    /** One `@expect` line's [text] (after `@expect`), at [line]. */
    fun add(text: String, line: Int) {
        val (word, rest) = words(text)
        val kind = word.lowercase()
        try {
            expectation = when (kind) {
                "status" -> once(kind, line, false) { expectation.status(*statuses(rest, line)) }
                "content-type" -> once(kind, line, false) { expectation.contentType(rest.ifEmpty { usage(line) }) }
                "json" -> json(rest, line).also { checksBody = true }
                "body" -> once(kind, line, true) { expectation.bodyMatches(afterWord("matches", rest, line)) }
                "length" -> once(kind, line, true) { length(rest, line) }
                else -> usage(line)
            }
        } catch (e: PatternSyntaxException) {
            fail(line, "bad regex \"${e.pattern}\": ${e.description} at index ${e.index}")
        } catch (e: HttpFileException) {
            throw e
        } catch (e: IllegalArgumentException) {
            fail(line, e.message ?: "$e")
        }
    }

    private fun once(kind: String, line: Int, body: Boolean, check: () -> ResponseExpectation): ResponseExpectation {
        declared.put(kind, line)?.let { fail(line, "@expect $kind given twice for one request (first at line $it)") }
        if (body) checksBody = true
        return check()
    }

    private fun statuses(rest: String, line: Int): IntArray {
        val words = rest.split(SPACES).filter { it.isNotEmpty() }
        if (words.isEmpty()) usage(line)
        return words.map {
            it.toIntOrNull()
                ?: fail(line, "status \"$it\" is not a number: write # @expect status 200 201")
        }
            .toIntArray()
    }

    private fun length(rest: String, line: Int): ResponseExpectation {
        val bounds = rest.split("..")
        val min = bounds[0].trim().toLongOrNull()
        val max = if (bounds.size == 2) bounds[1].trim().toLongOrNull() else min
        if (bounds.size > 2 || min == null || max == null) {
            fail(line, "length \"$rest\" is not a range of bytes: write # @expect length 10..200 (or one length)")
        }
        return expectation.bodyLength(min, max)
    }

    /** `json POINTER TYPE`, `json POINTER = LITERAL`, `json POINTER matches REGEX`. */
    private fun json(rest: String, line: Int): ResponseExpectation {
        val (pointer, what) = words(rest)
        if (!pointer.startsWith("/") || what.isEmpty()) usage(line)
        val check = when {
            what.startsWith("=") -> Expect.value(literal(what.removePrefix("=").trim(), line))

            words(what).first == "matches" -> Expect.matches(afterWord("matches", what, line))

            else -> TYPES[what] ?: fail(
                line,
                "\"$what\" is not a JSON check: write a type (${TYPES.keys.joinToString(" ")}), = a JSON value, " +
                    "or matches REGEX",
            )
        }
        return expectation.json(pointer, check)
    }

    /** [text] after its first word, [word], and the spaces after it: a regex, to the end of the line. */
    private fun afterWord(word: String, text: String, line: Int): String {
        val (first, rest) = words(text)
        if (first != word) usage(line)
        return rest.ifEmpty { usage(line) }
    }

    /** A JSON string, number, true/false or null, as [Expect.value] takes it. */
    private fun literal(text: String, line: Int): Any? {
        val node: JsonNode = try {
            MAPPER.readTree(text)
        } catch (e: JacksonException) {
            fail(line, "$text is not a JSON value (a string is quoted: = \"A-1\")")
        }
        return when {
            node.isString -> node.stringValue()
            node.isIntegralNumber -> node.bigIntegerValue()
            node.isNumber -> node.decimalValue()
            node.isBoolean -> node.booleanValue()
            node.isNull -> null
            else -> fail(line, "$text: the value to compare is a string, a number, true, false or null")
        }
    }

    /** [text]'s first word and the rest, trimmed. */
    private fun words(text: String): Pair<String, String> {
        val m = FIRST_WORD.matchEntire(text.trim())!!
        return m.groupValues[1] to m.groupValues[2].trim()
    }

    private fun usage(line: Int): Nothing = fail(
        line,
        "not a check: write # @expect status 201 | content-type TYPE | json /pointer TYPE | json /pointer = VALUE | " +
            "json /pointer matches REGEX | body matches REGEX | length MIN..MAX",
    )

    private fun fail(line: Int, what: String): Nothing = throw HttpFileException(file, line, what)

    private companion object {
        val SPACES = Regex("\\s+")
        val FIRST_WORD = Regex("""(\S*)\s*(.*)""")

        /** The value types a `json` check names, as the client's [JsonType]s (and `present`: any value). */
        val TYPES: Map<String, JsonValueCheck> = JsonType.entries.associate { it.name.lowercase() to Expect.type(it) } +
            ("present" to Expect.present())

        /** Decimals as BigDecimal, so `= 0.1` compares exactly; `"a" x` is not one value. */
        val MAPPER: JsonMapper = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build()
    }
}
