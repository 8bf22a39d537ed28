package serverbench.client

import io.netty.buffer.ByteBuf
import java.nio.charset.StandardCharsets

/**
 * Byte-level scanning of HTTP/1.1 head lines for [ResponseParser]: reads a [ByteBuf] in place by index, so parsing a
 * response head creates no String and no header object. Lines end at LF (a CR before it is tolerated).
 */
internal object HttpBytes {
    const val SP = ' '.code.toByte()
    const val LF = '\n'.code.toByte()

    /** Index just after the next LF at or after [from], or null if there is none yet. */
    fun lineEnd(buf: ByteBuf, from: Int): Int? {
        val lf = buf.indexOf(from, buf.writerIndex(), LF)
        return if (lf < 0) null else lf + 1
    }

    fun isBlank(buf: ByteBuf, start: Int, end: Int) =
        end - start == 1 || (end - start == 2 && buf.getByte(start) == '\r'.code.toByte())

    fun startsWith(buf: ByteBuf, at: Int, prefix: ByteArray): Boolean {
        for (i in prefix.indices) if (buf.getByte(at + i) != prefix[i]) return false
        return true
    }

    /** True if the bytes at [at] are [prefix] (lower case) in any case. */
    fun startsWithIgnoringCase(buf: ByteBuf, at: Int, prefix: ByteArray): Boolean {
        for (i in prefix.indices) if (lower(buf.getByte(at + i)) != prefix[i]) return false
        return true
    }

    /** True if the line is the header [name] (case-insensitive) followed by ':'. */
    fun headerIs(buf: ByteBuf, start: Int, end: Int, name: ByteArray): Boolean {
        if (end - start <= name.size || buf.getByte(start + name.size) != ':'.code.toByte()) return false
        for (i in name.indices) if (lower(buf.getByte(start + i)) != name[i]) return false
        return true
    }

    fun contains(buf: ByteBuf, from: Int, to: Int, word: ByteArray): Boolean {
        var i = from
        while (i + word.size <= to) {
            var j = 0
            while (j < word.size && lower(buf.getByte(i + j)) == word[j]) j++
            if (j == word.size) return true
            i++
        }
        return false
    }

    private fun lower(b: Byte): Byte = if (b in 'A'.code.toByte()..'Z'.code.toByte()) (b + 32).toByte() else b

    fun valueStart(buf: ByteBuf, from: Int, to: Int): Int {
        var i = from
        while (i < to && (buf.getByte(i) == SP || buf.getByte(i) == '\t'.code.toByte())) i++
        return i
    }

    fun trimEnd(buf: ByteBuf, lineEnd: Int): Int {
        var i = lineEnd
        while (i > 0 && isSpace(buf.getByte(i - 1))) i--
        return i
    }

    private fun isSpace(b: Byte) = b == LF || b == '\r'.code.toByte() || b == SP || b == '\t'.code.toByte()

    /** A non-negative decimal number in [from, to), or -1. */
    fun digits(buf: ByteBuf, from: Int, to: Int): Long {
        if (from >= to || to - from > 18) return -1
        var v = 0L
        for (i in from until to) {
            val d = buf.getByte(i) - '0'.code.toByte()
            if (d !in 0..9) return -1
            v = v * 10 + d
        }
        return v
    }

    /** The hex size at the start of a chunk line (extensions after ';' ignored), or null. */
    fun chunkSize(buf: ByteBuf, from: Int, to: Int): Long? {
        var v = 0L
        var n = 0
        for (i in from until to) {
            val c = buf.getByte(i).toInt()
            val d = when (c) {
                in '0'.code..'9'.code -> c - '0'.code
                in 'a'.code..'f'.code -> c - 'a'.code + 10
                in 'A'.code..'F'.code -> c - 'A'.code + 10
                else -> break
            }
            if (++n > 15) return null
            v = v * 16 + d
        }
        return if (n == 0) null else v
    }

    /**
     * Where [n] bytes at [at] first differ from [expected] at [offset] (or run past its end): "at byte N: "<got>",
     * expected "<expected>"", each a few bytes either side, on the failure path only.
     */
    fun difference(buf: ByteBuf, at: Int, n: Int, expected: ByteBuf, offset: Int): String {
        val e = expected.readerIndex() + offset
        val left = expected.readableBytes() - offset
        var i = 0
        while (i < n && i < left && buf.getByte(at + i) == expected.getByte(e + i)) i++
        val from = maxOf(0, i - CONTEXT)
        val got = text(buf, at + from, at + minOf(n, i + CONTEXT))
        val wanted = text(expected, e + from, e + minOf(left, i + CONTEXT))
        return "at byte ${offset + i}: \"$got\", expected \"$wanted\""
    }

    private const val CONTEXT = 24

    fun text(buf: ByteBuf, from: Int, to: Int): String = buf.toString(from, to - from, StandardCharsets.UTF_8)
}
