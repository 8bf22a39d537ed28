package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import io.netty.handler.codec.http2.Http2Headers
import java.net.InetSocketAddress

/**
 * One entry of a [RequestMix] as one [LoadClient] sends it: everything a send and its response's checks read, made
 * once per client, so that a send only picks the entry ([LoadClient.nextEntry]) and reads its fields. A single
 * request is entry 0 of a one-entry mix. Released with the client ([release]).
 */
internal class ClientEntry(
    /** Its index in the mix: what [IterationStats] counts its successes by and [Failures] names it by. */
    val index: Int,
    val request: Request,
    address: InetSocketAddress,
    settings: ClientSettings,
) {
    /** A constant request's bytes (a templated one's sample rendering, for its size only). */
    private val buffer: ByteBuf = request.encode(address.hostString, address.port)

    /** Bytes of one request on the wire (a templated one's sample). */
    val wireSize: Int = buffer.readableBytes()

    /** Renders each send of a templated request (its path or body has placeholders); null for a constant one. */
    val renderer: RequestRenderer? =
        if (request.templated) RequestRenderer(request, address.hostString, address.port) else null

    /** What connections write: Netty releases what it wrote; this wrapper makes that a no-op for the shared bytes. */
    val bytes: ByteBuf = Unpooled.unreleasableBuffer(buffer)
    val expectedBody: ByteBuf = Unpooled.wrappedBuffer(request.expected)

    /** The request's checks of each response, shared by this client's connections and streams. */
    val check = ResponseCheck(request)
    val head: Boolean = request.method == Method.HEAD

    /**
     * `-p protocol=h2`: the request's head, built once: HPACK encodes it per stream (its dynamic table makes that a
     * few bytes). A templated request's [renderer] updates its path and length per send. Null on HTTP/1.1.
     */
    val h2Headers: Http2Headers? = if (settings.http2Streams > 0) {
        (renderer ?: RequestRenderer(request, address.hostString, address.port))
            .h2Head(if (settings.tls != null) "https" else "http", "${address.hostString}:${address.port}")
    } else {
        null
    }

    /** A constant body, shared; each send writes a view of it (Netty releases the view, never the bytes). */
    val h2Body: ByteBuf? = request.body?.let { Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(it)) }
        ?: request.bodyParts?.constant?.let { Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(it)) }

    fun release() {
        buffer.release()
    }
}
