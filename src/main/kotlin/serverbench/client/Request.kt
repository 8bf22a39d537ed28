package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import java.nio.charset.StandardCharsets

/**
 * One request the client repeats, and the only answer it accepts: status 2xx and a body equal to [expectedBody].
 * Validation compares bytes, so it costs a memcmp per response, not a parse. With a [shape], the body may differ per
 * response: the shape checks it, and [expectedBody] only describes it in failure messages.
 */
class Request(val path: String, val expectedBody: String, val shape: BodyShape? = null) {
    init {
        require(path.startsWith("/")) { "request path must start with '/': $path" }
    }

    /** The exact body; empty with a [shape], so the parser keeps the body (up to its sample size) for the shape. */
    val expected: ByteArray = if (shape == null) expectedBody.toByteArray(StandardCharsets.UTF_8) else ByteArray(0)

    /**
     * The request bytes, encoded once per client (which releases them): the hot path writes a view of this buffer and
     * never formats or allocates a request.
     */
    internal fun encode(host: String, port: Int): ByteBuf {
        val text = "GET $path HTTP/1.1\r\nHost: $host:$port\r\n\r\n"
        val bytes = text.toByteArray(StandardCharsets.US_ASCII)
        return Unpooled.directBuffer(bytes.size).writeBytes(bytes)
    }

    override fun toString() = "GET $path"
}
