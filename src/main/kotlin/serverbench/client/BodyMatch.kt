package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.ByteBufUtil
import serverbench.client.HttpBytes.text

/**
 * A response body compared with the expected bytes as it arrives, piece by piece (an HTTP/1.1 read, an HTTP/2 DATA
 * frame), without copying it: the one check both protocols' responses go through. On the failure path only, it keeps
 * where the body first differed and the first [SAMPLE_BYTES] of it, for the failure's message.
 */
internal class BodyMatch(
    private val expected: ByteBuf,
    /**
     * False when the request's body is checked otherwise ([ResponseExpectation]'s body checks, a [BodyShape]): the
     * body is then only counted, and sampled for an error status, so it pays no compare and no failure text.
     */
    private val compare: Boolean = true,
) {
    var length = 0L
        private set
    var matches = true
        private set

    /** Where a body that did not match first differs, and what each had there: a long body's sample may not show it. */
    var difference: String? = null
        private set

    /** The first bytes of a body that did not match, or of an error response, for the failure message. */
    var sample: String? = null
        private set

    /**
     * The body as received, for a failure message: the [sample], or, for a body cut short that matched as far as it
     * went (no sample taken), the expected body's first [length] bytes.
     */
    val received: String?
        get() = sample ?: if (matches && length > 0) {
            val from = expected.readerIndex()
            text(expected, from, from + minOf(length, SAMPLE_BYTES.toLong()).toInt())
        } else {
            null
        }

    /** All of it arrived, and it is the expected body. */
    val complete: Boolean get() = matches && length == expected.readableBytes().toLong()

    fun reset() {
        length = 0
        matches = true
        difference = null
        sample = null
    }

    /** [n] more body bytes at [at] of [buf]; [errorStatus]: the response failed anyway, so its body is sampled. */
    fun add(buf: ByteBuf, at: Int, n: Int, errorStatus: Boolean) {
        val matchedSoFar = matches
        if (compare && matches && differs(buf, at, n)) {
            matches = false
            difference = HttpBytes.difference(buf, at, n, expected, length.toInt())
        }
        if (!matches || errorStatus) {
            // The body as received, across pieces, up to SAMPLE_BYTES (the bytes before a mismatch matched the
            // expected body, so they are taken from it).
            val from = expected.readerIndex()
            val before = sample ?: if (matchedSoFar && length > 0) text(expected, from, from + length.toInt()) else ""
            if (before.length < SAMPLE_BYTES) {
                sample = before + text(buf, at, at + minOf(n, SAMPLE_BYTES - before.length))
            }
        }
        length += n
    }

    /** The [n] bytes at [at] are not the expected body's next ones (or run past its end). */
    private fun differs(buf: ByteBuf, at: Int, n: Int): Boolean = length + n > expected.readableBytes() ||
        !ByteBufUtil.equals(buf, at, expected, expected.readerIndex() + length.toInt(), n)

    companion object {
        const val SAMPLE_BYTES = 80
    }
}
