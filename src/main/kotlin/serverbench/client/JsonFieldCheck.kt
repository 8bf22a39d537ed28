package serverbench.client

import tools.jackson.core.JsonPointer
import tools.jackson.databind.JsonNode
import java.math.BigDecimal
import java.math.BigInteger

/** The JSON types a field can be required to have ([Expect.type]). */
enum class JsonType(internal val described: String) {
    STRING("a string"),
    NUMBER("a number"),

    /** A number without a fraction or exponent in the body (`1`, not `1.0`). */
    INTEGER("an integer"),
    BOOLEAN("a boolean"),
    OBJECT("an object"),
    ARRAY("an array"),
    NULL("null"),
    ;

    internal fun test(node: JsonNode): Boolean = when (this) {
        STRING -> node.isString
        NUMBER -> node.isNumber
        INTEGER -> node.isIntegralNumber
        BOOLEAN -> node.isBoolean
        OBJECT -> node.isObject
        ARRAY -> node.isArray
        NULL -> node.isNull
    }
}

/**
 * What one JSON value must be: equal to a value, of a [JsonType], or matching a regex. Made by [Expect]'s value
 * checks ([Expect.value], [Expect.type], [Expect.integer], [Expect.matches], ...); [description] is what a failure
 * line says was expected.
 */
class JsonValueCheck private constructor(val description: String, private val test: (JsonNode) -> Boolean) {
    internal fun accepts(node: JsonNode): Boolean = test(node)

    override fun toString() = description

    internal companion object {
        fun type(type: JsonType) = JsonValueCheck(type.described) { type.test(it) }

        fun present() = JsonValueCheck("any value") { true }

        /** The whole text of a string, or the JSON text of a number or boolean, matches [regex]. */
        fun matches(regex: String): JsonValueCheck {
            val compiled = Regex(regex)
            return JsonValueCheck("a value matching $regex") { node ->
                val text = when {
                    node.isString -> node.stringValue()
                    node.isNumber || node.isBoolean -> node.toString()
                    else -> null
                }
                text != null && compiled.matches(text)
            }
        }

        /** Equal to [value]: a String, a Boolean, null, or a number (integers compared exactly, others by value). */
        fun equalTo(value: Any?): JsonValueCheck = when (value) {
            null -> JsonValueCheck("null") { it.isNull }

            is String -> JsonValueCheck(quote(value)) { it.isString && it.stringValue() == value }

            is Boolean -> JsonValueCheck("$value") { it.isBoolean && it.booleanValue() == value }

            is Int, is Long, is Short, is Byte, is BigInteger -> {
                val n = BigInteger(value.toString())
                JsonValueCheck("$value") { it.isIntegralNumber && it.bigIntegerValue() == n }
            }

            is Double, is Float, is BigDecimal -> {
                val n = BigDecimal(value.toString())
                JsonValueCheck("$value") { it.isNumber && it.decimalValue().compareTo(n) == 0 }
            }

            else -> throw IllegalArgumentException(
                "a JSON value to expect is a String, a number, a Boolean or null, not ${value.javaClass.name}",
            )
        }

        /** A JSON string literal, for failure lines (the escapes a one-line message needs). */
        fun quote(s: String): String = buildString {
            append('"')
            for (c in s) {
                when (c) {
                    '"' -> append("\\\"")
                    '\\' -> append("\\\\")
                    '\n' -> append("\\n")
                    '\r' -> append("\\r")
                    '\t' -> append("\\t")
                    else -> append(c)
                }
            }
            append('"')
        }
    }
}

/**
 * One field of a JSON answer, by its JSON Pointer ([RFC 6901](https://www.rfc-editor.org/rfc/rfc6901): `/id`,
 * `/items/0/name`; `~1` for a `/` in a name, `~0` for `~`; the empty pointer is the whole document), and what its
 * value must be. A missing field fails.
 */
class JsonFieldCheck(val pointer: String, val value: JsonValueCheck) {
    // Compiled when declared, so a malformed pointer fails where it is written, not at the first response.
    private val compiled: JsonPointer = try {
        JsonPointer.compile(pointer)
    } catch (e: IllegalArgumentException) {
        throw IllegalArgumentException("not a JSON Pointer (RFC 6901): \"$pointer\": ${e.message}", e)
    }

    /** What failure lines call the field: the pointer, or "the document" for the empty pointer (the whole body). */
    private val shown = pointer.ifEmpty { "the document" }

    /** Null when [document]'s field passes, else the failure line: `/id: expected an integer, was "abc"`. */
    internal fun problem(document: JsonNode): String? {
        val node = document.at(compiled)
        return when {
            node.isMissingNode -> "$shown: missing, expected ${value.description}"
            value.accepts(node) -> null
            else -> "$shown: expected ${value.description}, was ${oneLine(node.toString())}"
        }
    }

    override fun toString() = "$pointer: $value"
}
