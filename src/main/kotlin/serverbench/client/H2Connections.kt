package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import io.netty.handler.codec.http2.Http2Headers
import java.net.InetSocketAddress

/**
 * The HTTP/2 connections of a [LoadClient] (`-p protocol=h2`): slot `i` is stream `i % streams` of connection
 * `i / streams`, so `connections × streams` slots keep that many requests in flight on `connections` connections. A
 * connection that closes (or retires after a GOAWAY) hands each of its slots to a new one as the slot is replaced.
 */
internal class H2Connections(
    private val client: LoadClient,
    private val slots: ConnectionSlots,
    private val streams: Int,
    address: InetSocketAddress,
) {
    private val carriers = arrayOfNulls<H2Connection>((slots.all.size + streams - 1) / streams)

    /**
     * The request's head, built once: HPACK encodes it per stream (its dynamic table makes that a few bytes). A
     * templated request's [renderer] updates its path and length per send.
     */
    val headers: Http2Headers = (client.renderer ?: RequestRenderer(client.request, address.hostString, address.port))
        .h2Head(if (client.settings.tls != null) "https" else "http", "${address.hostString}:${address.port}")

    /** A templated request's renderer (the client's); null for a constant request. */
    val renderer: RequestRenderer? = client.renderer

    /** A constant body, shared; each send writes a view of it (Netty releases the view, never the bytes). */
    val body: ByteBuf? = client.request.body?.let { Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(it)) }
        ?: client.request.bodyParts?.constant?.let { Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(it)) }

    /** Connections with streams written but not flushed. */
    private val unflushed = ArrayList<H2Connection>()

    fun written(c: H2Connection) {
        unflushed += c
    }

    /**
     * Flushes what this batch of sends wrote, one flush per connection: the requests that a batch of events made ready
     * leave together, as [ClosedLoop.sendReady] does across HTTP/1.1 connections (and as h2load writes).
     */
    fun flush() {
        for (i in unflushed.indices) unflushed[i].flush()
        unflushed.clear()
    }

    fun connect(slot: Int) {
        val group = slot / streams
        var carrier = carriers[group]
        if (carrier == null || !carrier.accepting) {
            val fresh = H2Connection(client, slots, this, streams)
            carriers[group] = fresh
            slots.open(fresh, group) { fresh.reconnect() }
            carrier = fresh
        }
        val stream = H2Stream(client, slots, carrier, slot)
        slots.all[slot] = stream
        carrier.attach(stream)
    }
}
