package serverbench.client

import io.netty.buffer.ByteBuf
import java.nio.charset.StandardCharsets

/**
 * A response body kept whole, up to [bound] bytes, for the checks that need all of it at once (JSON fields, a regex,
 * a [BodyShape]): only requests that declare one have a buffer. One per connection or stream, reused: it grows to the
 * largest body seen (doubling, never past [bound]), so a thousand connections of small answers hold small arrays.
 */
internal class BodyBuffer(val bound: Int) {
    init {
        require(bound >= 1) { "body bound must be >= 1 byte, was $bound" }
    }

    private var bytes = ByteArray(minOf(INITIAL_BYTES, bound))

    /** Bytes kept of the current body: all of it, unless [overflow]. */
    var length = 0
        private set

    /** The body ran past [bound]: it is not kept, and a check that needs it fails saying the bound. */
    var overflow = false
        private set

    fun reset() {
        length = 0
        overflow = false
    }

    /** [n] more body bytes at [at] of [buf]. */
    fun add(buf: ByteBuf, at: Int, n: Int) {
        if (overflow) return
        if (length.toLong() + n > bound) {
            overflow = true
            return
        }
        if (length + n > bytes.size) {
            var size = bytes.size
            while (size < length + n) size = minOf(bound.toLong(), size * 2L).toInt()
            bytes = bytes.copyOf(size)
        }
        buf.getBytes(at, bytes, length, n)
        length += n
    }

    /** The kept bytes, valid up to [length] until the next [reset]: read in place, never copied. */
    fun array(): ByteArray = bytes

    /** The kept body as text (UTF-8). */
    fun text(): String = String(bytes, 0, length, StandardCharsets.UTF_8)

    /** The first bytes of the body as text, for a failure message. */
    fun sample(): String = String(bytes, 0, minOf(length, BodyMatch.SAMPLE_BYTES), StandardCharsets.UTF_8)

    companion object {
        /** The first allocation: most answers checked by field or shape are small. */
        private const val INITIAL_BYTES = 1024
    }
}
