package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.ByteBufAllocator
import io.netty.buffer.Unpooled
import io.netty.handler.codec.http2.DefaultHttp2Headers
import io.netty.handler.codec.http2.Http2Headers
import io.netty.util.AsciiString
import io.netty.util.collection.IntObjectHashMap
import java.nio.charset.StandardCharsets
import java.util.Locale
import java.util.concurrent.ThreadLocalRandom

/**
 * A [Request] as one client sends it to one address: its HTTP/1.1 bytes and its HTTP/2 headers and body, with the
 * parts that never change encoded once here. A constant request is encoded once per client from here ([sampleH1]) and
 * never again. A templated one ([Request.templated]) is rendered per send: [draw] the placeholder values, then
 * [writeH1], or [h2Headers] and [h2Body].
 *
 * What a templated send costs, on top of a constant one: the values (`{{seq}}` one atomic increment on the request's
 * shared counter, `{{random}}` and `{{uuid}}` ThreadLocalRandom), one pooled direct buffer from Netty's allocator
 * (its thread cache: no garbage) that the whole request is written into, digits and hex written byte by byte; on
 * HTTP/2 a templated path is also one small byte array and [AsciiString] per request, for HPACK. Not thread-safe: one
 * per client, used on its event loop.
 */
internal class RequestRenderer(private val request: Request, host: String, port: Int) {
    private val values = TemplateValues()
    private val path = request.pathTemplate
    private val body = request.bodyParts
    private val uses = path.uses + (body?.uses ?: emptySet())
    private val drawsSeq = Placeholder.SEQ in uses
    private val drawsRandom = Placeholder.RANDOM in uses
    private val drawsUuid = Placeholder.UUID in uses

    /** `METHOD `, then the path. */
    private val start = "${request.method} ".ascii()

    /** After the path: the version, `Host`, the user's headers and the framing headers up to the body's length. */
    private val afterPath: ByteArray

    /** After the body's length: the head's end (nothing when there is no body: [afterPath] ends the head). */
    private val afterLength = "\r\n\r\n".ascii()

    init {
        val head = StringBuilder(" HTTP/1.1\r\nHost: $host:$port\r\n")
        for ((name, value) in request.headers) head.append(name).append(": ").append(value).append("\r\n")
        when {
            body != null -> head.append("Content-Type: ${request.contentType}\r\nContent-Length: ")
            request.method.emptyBodyHasLength -> head.append("Content-Length: 0\r\n\r\n")
            else -> head.append("\r\n")
        }
        afterPath = head.toString().ascii()
    }

    /** Draws the next request's placeholder values: only those it renders (no counter taken for nothing). */
    fun draw() {
        if (drawsSeq) values.seq = request.sequence.getAndIncrement()
        val random = ThreadLocalRandom.current()
        if (drawsRandom) values.random = random.nextLong() ushr 1
        if (drawsUuid) {
            // Version 4 (random) and the IETF variant, as java.util.UUID.randomUUID() sets them.
            values.uuidHigh = (random.nextLong() and VERSION_MASK.inv()) or VERSION_4
            values.uuidLow = (random.nextLong() and VARIANT_MASK) or Long.MIN_VALUE
        }
    }

    /** The whole HTTP/1.1 request for the values drawn, in a new pooled buffer (the channel releases it). */
    fun writeH1(alloc: ByteBufAllocator): ByteBuf {
        val bodyLength = body?.length(values) ?: 0
        val buf = alloc.directBuffer(
            start.size + path.length(values) + afterPath.size + DIGITS + afterLength.size + bodyLength,
        )
        writeH1(buf, bodyLength)
        return buf
    }

    private fun writeH1(buf: ByteBuf, bodyLength: Int) {
        buf.writeBytes(start)
        path.write(buf, values)
        buf.writeBytes(afterPath)
        if (body != null) {
            writeDecimal(buf, bodyLength.toLong())
            buf.writeBytes(afterLength)
            body.write(buf, values)
        }
    }

    /** The HTTP/1.1 bytes with [TemplateValues.sample] values: a constant request's only rendering. */
    fun sampleH1(): ByteArray {
        val sample = TemplateValues.sample()
        values.seq = sample.seq
        values.random = sample.random
        values.uuidHigh = sample.uuidHigh
        values.uuidLow = sample.uuidLow
        val buf = Unpooled.buffer()
        writeH1(buf, body?.length(values) ?: 0)
        return buf.array().copyOf(buf.readableBytes())
    }

    /**
     * The HTTP/2 request head for [scheme] and [authority]: the constant one a constant request sends on every stream,
     * or the one [h2Headers] updates per send.
     */
    fun h2Head(scheme: String, authority: String): Http2Headers = DefaultHttp2Headers().apply {
        method(request.method.name)
        path(AsciiString(path.constant ?: path.render(TemplateValues.sample()), false))
        scheme(scheme)
        authority(authority)
        for ((name, value) in request.headers) add(name.lowercase(Locale.ROOT), value)
        when {
            body != null -> {
                add(CONTENT_TYPE, request.contentType)
                add(CONTENT_LENGTH, lengthText(body.constant?.size ?: 0))
            }

            request.method.emptyBodyHasLength -> add(CONTENT_LENGTH, lengthText(0))
        }
    }

    /**
     * [head] (from [h2Head]) with the drawn values' path and body length. Updating one headers object per client is
     * safe because Netty's encoder HPACK-encodes a new stream's HEADERS at once (nothing is flow-controlled before a
     * stream's first frame), and HPACK keeps only the immutable values, never this object.
     */
    fun h2Headers(head: Http2Headers): Http2Headers {
        if (path.constant == null) head.path(AsciiString(path.render(values), false))
        if (body != null && body.constant == null) head.set(CONTENT_LENGTH, lengthText(body.length(values)))
        return head
    }

    /** The drawn values' body in a new pooled buffer (Netty releases it once the DATA frame is written), or null. */
    fun h2Body(alloc: ByteBufAllocator): ByteBuf? {
        val b = body ?: return null
        val buf = alloc.directBuffer(b.length(values))
        b.write(buf, values)
        return buf
    }

    /** `content-length` values, made once per length: a templated body's length takes only a few values. */
    private val lengths = IntObjectHashMap<AsciiString>()

    private fun lengthText(n: Int): AsciiString =
        lengths.get(n) ?: AsciiString.of(n.toString()).also { lengths.put(n, it) }

    private companion object {
        /** Room for a body length's digits. */
        const val DIGITS = 10
        const val VERSION_MASK = 0xF000L
        const val VERSION_4 = 0x4000L
        const val VARIANT_MASK = 0x3FFF_FFFF_FFFF_FFFFL
        val CONTENT_TYPE: AsciiString = AsciiString.cached("content-type")
        val CONTENT_LENGTH: AsciiString = AsciiString.cached("content-length")

        fun String.ascii(): ByteArray = toByteArray(StandardCharsets.US_ASCII)
    }
}
