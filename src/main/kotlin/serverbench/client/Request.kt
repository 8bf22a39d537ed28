package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import java.nio.charset.StandardCharsets

/**
 * One request the client repeats, and the only answer it accepts: status 2xx and a body equal to [expectedBody].
 * Validation compares bytes, so it costs a memcmp per response, not a parse. With a [shape], the body may differ per
 * response: the shape checks it, and [expectedBody] only describes it in failure messages.
 *
 * With a [body], the request is a POST carrying it (`Content-Type: [contentType]`, `Content-Length`); with an
 * [expectedContentType], a response whose `Content-Type` does not start with it is an invalid body too.
 */
class Request(
    val path: String,
    val expectedBody: String,
    val shape: BodyShape? = null,
    val body: ByteArray? = null,
    val contentType: String = JSON,
    val expectedContentType: String? = null,
    /** What else a response must be (statuses, body checks instead of the exact body); see [ResponseExpectation]. */
    val expect: ResponseExpectation? = null,
) {
    init {
        require(path.startsWith("/")) { "request path must start with '/': $path" }
        require(contentType.none { it == '\r' || it == '\n' }) { "content type must be one line: $contentType" }
    }

    /** The exact body; empty with a [shape], so the parser keeps the body (up to its sample size) for the shape. */
    val expected: ByteArray = if (shape == null) expectedBody.toByteArray(StandardCharsets.UTF_8) else ByteArray(0)

    /** `Content-Type` the response must start with (lower case, compared case-insensitively), or null: any. */
    internal val expectedType: ByteArray? = expectedContentType?.lowercase()?.toByteArray(StandardCharsets.US_ASCII)

    private val method = if (body == null) "GET" else "POST"

    /** The request's bytes on the wire, head and body: what the server reads per request. */
    fun wireBytes(host: String, port: Int): ByteArray {
        val head = StringBuilder("$method $path HTTP/1.1\r\nHost: $host:$port\r\n")
        if (body != null) head.append("Content-Type: $contentType\r\nContent-Length: ${body.size}\r\n")
        head.append("\r\n")
        return head.toString().toByteArray(StandardCharsets.US_ASCII) + (body ?: ByteArray(0))
    }

    /**
     * The request bytes, encoded once per client (which releases them): the hot path writes a view of this buffer and
     * never formats or allocates a request.
     */
    internal fun encode(host: String, port: Int): ByteBuf {
        val bytes = wireBytes(host, port)
        return Unpooled.directBuffer(bytes.size).writeBytes(bytes)
    }

    override fun toString() = if (body == null) "GET $path" else "POST $path (${body.size}-byte body)"

    companion object {
        const val JSON = "application/json"
    }
}
