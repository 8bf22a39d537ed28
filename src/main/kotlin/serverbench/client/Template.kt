package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import java.io.ByteArrayOutputStream
import java.nio.charset.StandardCharsets

/**
 * A request path or body with placeholders, parsed once and rendered per request straight into a [ByteBuf]: no String,
 * no formatting library, no allocation on the hot path.
 *
 * Syntax: `{{seq}}`, `{{random}}` and `{{uuid}}` (spaces inside the braces allowed, `{{ seq }}`) are replaced per
 * request (see [Placeholder]); `\{{` is a literal `{{`; every other character, a lone `{` or `}` and `}}` included,
 * is itself. Any other name in `{{...}}`, or a `{{` never closed, is refused when the request is built, so a typo
 * fails at once instead of sending the literal text. Why double braces: a JSON body never has `{{` outside a string
 * (an object opens with a key or closes), so they need no escaping in the bodies users write; and a path never has a
 * literal `{` (not allowed in a URI unencoded).
 */
internal class Template private constructor(
    /** The literal bytes, all of them: literal `i` is `literals[cuts[i] until cuts[i + 1]]`. */
    private val literals: ByteArray,
    private val cuts: IntArray,
    /** Between literal `i` and `i + 1`. */
    private val placeholders: Array<Placeholder>,
) {
    /** The placeholders it uses, so that a request draws only the values it renders. */
    val uses: Set<Placeholder> = placeholders.toSet()

    /** The text, when it has no placeholder: a constant, sent as it is. */
    val constant: ByteArray? = if (placeholders.isEmpty()) literals else null

    /** Bytes [write] will write for [v]. */
    fun length(v: TemplateValues): Int {
        var n = literals.size
        for (p in placeholders) n += p.length(v)
        return n
    }

    fun write(buf: ByteBuf, v: TemplateValues) {
        for (i in placeholders.indices) {
            buf.writeBytes(literals, cuts[i], cuts[i + 1] - cuts[i])
            placeholders[i].write(buf, v)
        }
        val last = cuts[placeholders.size]
        buf.writeBytes(literals, last, literals.size - last)
    }

    /** The rendered bytes, off the hot path (a request's sample, tests). */
    fun render(v: TemplateValues): ByteArray {
        val buf = Unpooled.buffer(length(v))
        write(buf, v)
        return buf.array().copyOf(buf.readableBytes())
    }

    companion object {
        private const val OPEN = "{{"
        private const val CLOSE = "}}"
        private const val ESCAPED_OPEN = "\\{{"

        /** Bytes sent as they are, placeholders or not (a [Request.body]). */
        fun constant(bytes: ByteArray) = Template(bytes, intArrayOf(0, bytes.size), emptyArray())

        /** Parses [text] (the request's [what], for the error message); throws [IllegalArgumentException]. */
        fun parse(text: String, what: String): Template {
            val cuts = ArrayList<Int>()
            val placeholders = ArrayList<Placeholder>()
            val literal = StringBuilder()
            val literals = ByteArrayOutputStream()
            var i = 0
            while (i < text.length) {
                when {
                    text.startsWith(ESCAPED_OPEN, i) -> {
                        literal.append(OPEN)
                        i += ESCAPED_OPEN.length
                    }

                    text.startsWith(OPEN, i) -> {
                        val end = text.indexOf(CLOSE, i + OPEN.length)
                        val name = if (end < 0) null else text.substring(i + OPEN.length, end).trim()
                        val p = Placeholder.entries.firstOrNull { it.text == name }
                        require(p != null) {
                            "$what: \"${text.substring(i, if (end < 0) text.length else end + CLOSE.length)}\" is " +
                                "not a placeholder; the placeholders are ${Placeholder.entries.joinToString()}, " +
                                "and \\{{ is a literal {{"
                        }
                        cuts += literals.size()
                        literals.writeBytes(literal.toString().toByteArray(StandardCharsets.UTF_8))
                        literal.setLength(0)
                        placeholders += p
                        i = end + CLOSE.length
                    }

                    else -> literal.append(text[i++])
                }
            }
            cuts += literals.size()
            literals.writeBytes(literal.toString().toByteArray(StandardCharsets.UTF_8))
            cuts += literals.size()
            return Template(literals.toByteArray(), cuts.toIntArray(), placeholders.toTypedArray())
        }
    }
}

/**
 * What a [Template] can hold, each drawn once per request ([TemplateValues]), so that a path and a body that both say
 * `{{seq}}` carry the same number.
 */
internal enum class Placeholder(internal val text: String) {
    /**
     * 1, 2, 3, ...: one counter per [Request] instance, shared by every client and thread that sends it (warmup, the
     * iterations, each step of a capacity search), so no two requests of a JVM carry the same number. It starts at 1
     * again in each JVM (JMH fork): for a server whose data outlives the fork, use [UUID] or [RANDOM].
     */
    SEQ("seq"),

    /** A random long from 0 to 2^63 - 1, in decimal (a JSON number; above 2^53 JavaScript rounds it). */
    RANDOM("random"),

    /** A random (version 4) UUID, 36 characters, lower case. */
    UUID("uuid"),
    ;

    internal fun length(v: TemplateValues): Int = when (this) {
        SEQ -> decimalLength(v.seq)
        RANDOM -> decimalLength(v.random)
        UUID -> UUID_LENGTH
    }

    internal fun write(buf: ByteBuf, v: TemplateValues) {
        when (this) {
            SEQ -> writeDecimal(buf, v.seq)
            RANDOM -> writeDecimal(buf, v.random)
            UUID -> writeUuid(buf, v.uuidHigh, v.uuidLow)
        }
    }

    override fun toString() = "{{$text}}"

    private companion object {
        const val UUID_LENGTH = 36

        /** The UUID's text form: 8-4-4-4-12 hex digits. */
        fun writeUuid(buf: ByteBuf, high: Long, low: Long) {
            writeHex(buf, high ushr 32, 8)
            buf.writeByte('-'.code)
            writeHex(buf, high ushr 16, 4)
            buf.writeByte('-'.code)
            writeHex(buf, high, 4)
            buf.writeByte('-'.code)
            writeHex(buf, low ushr 48, 4)
            buf.writeByte('-'.code)
            writeHex(buf, low, 12)
        }

        /** The low [digits] hex digits of [v]. */
        fun writeHex(buf: ByteBuf, v: Long, digits: Int) {
            for (i in digits - 1 downTo 0) buf.writeByte(HEX[((v ushr (4 * i)) and 0xf).toInt()].code)
        }

        const val HEX = "0123456789abcdef"
    }
}

/** One request's placeholder values (see [Placeholder]); reused, refilled before each request that renders them. */
internal class TemplateValues(var seq: Long = 0, var random: Long = 0, var uuidHigh: Long = 0, var uuidLow: Long = 0) {
    companion object {
        /** What a request's [Request.wireBytes] shows: the widths a run sees, not a value it sends. */
        fun sample() = TemplateValues(1, 4_611_686_018_427_387_904L, 0x4000L, Long.MIN_VALUE)
    }
}

/** Digits of [v] >= 0 in decimal. */
internal fun decimalLength(v: Long): Int {
    var n = 1
    var x = v
    while (x >= 10) {
        x /= 10
        n++
    }
    return n
}

/** [v] >= 0 in decimal, written without a String. */
internal fun writeDecimal(buf: ByteBuf, v: Long) {
    val n = decimalLength(v)
    buf.ensureWritable(n)
    val at = buf.writerIndex()
    var x = v
    for (i in n - 1 downTo 0) {
        buf.setByte(at + i, '0'.code + (x % 10).toInt())
        x /= 10
    }
    buf.writerIndex(at + n)
}
