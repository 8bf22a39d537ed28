package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.ByteBufUtil
import serverbench.client.HttpBytes.SP
import serverbench.client.HttpBytes.chunkSize
import serverbench.client.HttpBytes.contains
import serverbench.client.HttpBytes.digits
import serverbench.client.HttpBytes.headerIs
import serverbench.client.HttpBytes.isBlank
import serverbench.client.HttpBytes.lineEnd
import serverbench.client.HttpBytes.startsWith
import serverbench.client.HttpBytes.startsWithIgnoringCase
import serverbench.client.HttpBytes.text
import serverbench.client.HttpBytes.trimEnd
import serverbench.client.HttpBytes.valueStart
import java.nio.charset.StandardCharsets

/**
 * An incremental HTTP/1.1 response parser that reads only what the load client needs: the status code, whether the
 * connection stays open, and the body, compared byte for byte with the expected body as it streams past (or, for a
 * request that declares whole-body checks, kept in [kept] for [ResponseCheck]).
 *
 * Why not Netty's HttpResponseDecoder (which the client used first): that decoder builds a response object, a header
 * map with a String per header and content objects for every response; here that was the largest user-space cost of
 * the client, and client CPU is taken from the cores the server also needs (the commit that introduced this class
 * has the measurement; docs/calibration.md, "Cross-checking with wrk", has the client's ceiling now).
 *
 * Supports Content-Length bodies, chunked bodies (with trailers), bodies delimited by connection close, responses
 * without a body (101, 204, 304, and any answer to a HEAD), and skips interim 1xx responses. Allocation-free unless
 * a response head or chunk line is split across reads. The byte scanning it builds on is in [HttpBytes].
 */
internal class ResponseParser(
    private val expected: ByteBuf,
    /** `Content-Type` the response must start with, lower case (see [Request.expectedContentType]); null: any. */
    private val expectedType: ByteArray? = null,
    /** False when the body is checked otherwise than byte for byte (see [BodyMatch]'s `compare`). */
    compare: Boolean = true,
    /** Where the body is kept whole for the checks that need it ([ResponseCheck.newBuffer]); null: not kept. */
    val kept: BodyBuffer? = null,
    /** The request is a HEAD: its response ends with its head, whatever `Content-Length` it announces. */
    private val headRequest: Boolean = false,
) {

    var status = 0
        private set
    var keepAlive = true
        private set
    private val body = BodyMatch(expected, compare)

    /** The body as counted and compared, for [ResponseCheck.verdict]. */
    val bodyMatch: BodyMatch get() = body
    val bodyLength: Long get() = body.length
    val bodyMatches: Boolean get() = body.matches

    /** The `Content-Type` is the expected one (always, without one); else [contentType] says what it was. */
    var contentTypeMatches = true
        private set
    var contentType: String? = null
        private set

    /** Where a body that did not match first differs ([BodyMatch.difference]). */
    val difference: String? get() = body.difference

    /** The first bytes of a body that did not match, or of an error response ([BodyMatch.sample]). */
    val sample: String? get() = body.sample

    /** Why the response was malformed, when [parse] returned [MALFORMED]. */
    var problem: String? = null
        private set

    private var state = HEAD
    private var remaining = 0L

    // The head's framing headers, while it is read.
    private var contentLength = -1L
    private var chunked = false
    private var typeSeen = false

    fun reset() {
        status = 0
        keepAlive = true
        body.reset()
        kept?.reset()
        contentTypeMatches = true
        contentType = null
        problem = null
        state = HEAD
        remaining = 0
    }

    /**
     * Consumes as much of [buf] as it can. Returns [COMPLETE] when a whole response has been read (bytes after it stay
     * unread), [NEED_MORE] when the rest is still to come (an incomplete head or chunk line stays unread, so the
     * caller keeps it for the next read), or [MALFORMED] (see [problem]).
     */
    @Suppress("CyclomaticComplexMethod") // One branch per parser state: the state machine reads as one table.
    fun parse(buf: ByteBuf): Int {
        while (true) {
            when (state) {
                HEAD -> {
                    val r = head(buf)
                    if (r != CONTINUE) return r
                }

                BODY -> {
                    body(buf, minOf(remaining, buf.readableBytes().toLong()).toInt())
                    if (remaining > 0) return NEED_MORE
                    return COMPLETE
                }

                BODY_UNTIL_CLOSE -> {
                    body(buf, buf.readableBytes())
                    return NEED_MORE
                }

                CHUNK_SIZE -> {
                    val r = chunkSizeLine(buf)
                    if (r != CONTINUE) return r
                }

                CHUNK_DATA -> {
                    body(buf, minOf(remaining, buf.readableBytes().toLong()).toInt())
                    if (remaining > 0) return NEED_MORE
                    state = CHUNK_END
                }

                CHUNK_END -> {
                    val r = chunkEnd(buf)
                    if (r != CONTINUE) return r
                }

                TRAILERS -> {
                    val start = buf.readerIndex()
                    val end = lineEnd(buf, start) ?: return needLine(buf)
                    buf.readerIndex(end)
                    if (isBlank(buf, start, end)) return COMPLETE
                }
            }
        }
    }

    /** A chunk's size line: then its data, or the trailers after the last (size 0) chunk. */
    private fun chunkSizeLine(buf: ByteBuf): Int {
        val end = lineEnd(buf, buf.readerIndex()) ?: return needLine(buf)
        val size = chunkSize(buf, buf.readerIndex(), end) ?: return malformed("bad chunk size line")
        buf.readerIndex(end)
        if (size == 0L) {
            state = TRAILERS
        } else {
            remaining = size
            state = CHUNK_DATA
        }
        return CONTINUE
    }

    /** The CRLF after a chunk's data. */
    private fun chunkEnd(buf: ByteBuf): Int {
        val end = lineEnd(buf, buf.readerIndex()) ?: return needLine(buf)
        if (!isBlank(buf, buf.readerIndex(), end)) return malformed("no CRLF after chunk data")
        buf.readerIndex(end)
        state = CHUNK_SIZE
        return CONTINUE
    }

    /** The connection closed: completes a body delimited by the close, otherwise the response was cut short. */
    fun endOfInput(): Int = if (state == BODY_UNTIL_CLOSE) COMPLETE else NEED_MORE

    private fun head(buf: ByteBuf): Int {
        val start = buf.readerIndex()
        // Find the blank line that ends the head before consuming anything: a split head is parsed once, whole.
        val end = headEnd(buf, start)
        if (end < 0) {
            val tooLong = buf.readableBytes() > MAX_HEAD_BYTES
            return if (tooLong) malformed("response head longer than $MAX_HEAD_BYTES bytes") else NEED_MORE
        }
        val statusLineEnd = lineEnd(buf, start)!!
        if (!statusLine(buf, start, statusLineEnd)) {
            return malformed("bad status line \"${text(buf, start, statusLineEnd).trimEnd()}\"")
        }
        if (!headers(buf, statusLineEnd, end)) return malformed("bad Content-Length")
        buf.readerIndex(end)
        if (expectedType != null && !typeSeen) {
            contentTypeMatches = false
            contentType = "none"
        }
        if (status in 100..199 && status != 101) {
            // An interim response (100 Continue, 103 Early Hints): the final response follows on the same connection.
            status = 0
            contentTypeMatches = true
            contentType = null
            return CONTINUE
        }
        return afterHead()
    }

    /** Where the blank line that ends the head starting at [start] ends, or -1 while it has not all arrived. */
    private fun headEnd(buf: ByteBuf, start: Int): Int {
        var lineStart = start
        while (true) {
            val next = lineEnd(buf, lineStart) ?: return -1
            if (lineStart > start && isBlank(buf, lineStart, next)) return next
            lineStart = next
        }
    }

    /** Reads the status line (to [lineEnd]): false when it is not `HTTP/1.x` with a status of 100 or more. */
    private fun statusLine(buf: ByteBuf, start: Int, lineEnd: Int): Boolean {
        if (lineEnd - start < 14 || !startsWith(buf, start, HTTP_1) || buf.getByte(start + 8) != SP) return false
        val http10 = buf.getByte(start + 7) == '0'.code.toByte()
        status = digits(buf, start + 9, start + 12).toInt()
        if (status < 100) return false
        keepAlive = !http10
        return true
    }

    /** Reads the header lines from [from] to the head's [end]: false for a bad Content-Length. */
    private fun headers(buf: ByteBuf, from: Int, end: Int): Boolean {
        contentLength = -1L
        chunked = false
        typeSeen = false
        var lineStart = from
        while (lineStart < end) {
            val lineEnd = lineEnd(buf, lineStart)!!
            when {
                headerIs(buf, lineStart, lineEnd, CONTENT_LENGTH) -> {
                    val value = valueStart(buf, lineStart + CONTENT_LENGTH.size + 1, lineEnd)
                    contentLength = digits(buf, value, trimEnd(buf, lineEnd))
                    if (contentLength < 0) return false
                }

                headerIs(buf, lineStart, lineEnd, TRANSFER_ENCODING) ->
                    chunked = contains(buf, lineStart + TRANSFER_ENCODING.size + 1, lineEnd, CHUNKED)

                expectedType != null && headerIs(buf, lineStart, lineEnd, CONTENT_TYPE) ->
                    contentTypeHeader(buf, lineStart, lineEnd, expectedType)

                headerIs(buf, lineStart, lineEnd, CONNECTION) -> {
                    if (contains(buf, lineStart + CONNECTION.size + 1, lineEnd, CLOSE)) {
                        keepAlive = false
                    } else if (contains(buf, lineStart + CONNECTION.size + 1, lineEnd, KEEP_ALIVE)) {
                        keepAlive = true
                    }
                }
            }
            lineStart = lineEnd
        }
        return true
    }

    private fun contentTypeHeader(buf: ByteBuf, lineStart: Int, lineEnd: Int, expected: ByteArray) {
        typeSeen = true
        val value = valueStart(buf, lineStart + CONTENT_TYPE.size + 1, lineEnd)
        val valueEnd = trimEnd(buf, lineEnd)
        if (valueEnd - value < expected.size || !startsWithIgnoringCase(buf, value, expected)) {
            contentTypeMatches = false
            contentType = text(buf, value, valueEnd)
        }
    }

    /** What follows a final response's head: nothing, chunks, [contentLength] bytes, or bytes until the close. */
    private fun afterHead(): Int {
        state = when {
            headRequest || status == 101 || status == 204 || status == 304 -> return COMPLETE

            chunked -> CHUNK_SIZE

            contentLength >= 0 -> {
                remaining = contentLength
                BODY
            }

            else -> {
                keepAlive = false
                BODY_UNTIL_CLOSE
            }
        }
        return CONTINUE
    }

    private fun body(buf: ByteBuf, n: Int) {
        if (n == 0) return
        val at = buf.readerIndex()
        body.add(buf, at, n, errorStatus = status !in 200..299)
        kept?.add(buf, at, n)
        remaining -= n
        buf.readerIndex(at + n)
    }

    /** An incomplete line waits for more bytes, but not forever: a line longer than a whole head is malformed. */
    private fun needLine(buf: ByteBuf): Int =
        if (buf.readableBytes() > MAX_HEAD_BYTES) malformed("line longer than $MAX_HEAD_BYTES bytes") else NEED_MORE

    private fun malformed(why: String): Int {
        problem = why
        return MALFORMED
    }

    companion object {
        const val NEED_MORE = 0
        const val COMPLETE = 1
        const val MALFORMED = 2
        private const val CONTINUE = 3

        private const val HEAD = 0
        private const val BODY = 1
        private const val BODY_UNTIL_CLOSE = 2
        private const val CHUNK_SIZE = 3
        private const val CHUNK_DATA = 4
        private const val CHUNK_END = 5
        private const val TRAILERS = 6

        const val MAX_HEAD_BYTES = 64 * 1024
        const val SAMPLE_BYTES = BodyMatch.SAMPLE_BYTES
        private val HTTP_1 = "HTTP/1.".ascii()
        private val CONTENT_LENGTH = "content-length".ascii()
        private val TRANSFER_ENCODING = "transfer-encoding".ascii()
        private val CONNECTION = "connection".ascii()
        private val CONTENT_TYPE = "content-type".ascii()
        private val CHUNKED = "chunked".ascii()
        private val CLOSE = "close".ascii()
        private val KEEP_ALIVE = "keep-alive".ascii()

        private fun String.ascii() = toByteArray(StandardCharsets.US_ASCII)
    }
}
