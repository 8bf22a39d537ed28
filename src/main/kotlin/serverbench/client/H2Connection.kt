package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.channel.Channel
import io.netty.channel.ChannelHandlerContext
import io.netty.channel.ChannelInboundHandlerAdapter
import io.netty.channel.ChannelOutboundHandlerAdapter
import io.netty.channel.ChannelPromise
import io.netty.handler.codec.http2.Http2ConnectionAdapter
import io.netty.handler.codec.http2.Http2ConnectionHandler
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder
import io.netty.handler.codec.http2.Http2Error
import io.netty.handler.codec.http2.Http2Settings
import io.netty.handler.codec.http2.Http2Stream
import io.netty.handler.ssl.ApplicationProtocolNames
import io.netty.handler.ssl.NotSslRecordException
import io.netty.handler.ssl.SslHandler
import io.netty.handler.ssl.SslHandshakeCompletionEvent
import io.netty.util.collection.IntObjectHashMap
import java.nio.charset.StandardCharsets

/**
 * One HTTP/2 connection of a [LoadClient] (`-p protocol=h2`) and the [H2Stream] slots it carries: h2 over TLS by
 * ALPN, or h2c by prior knowledge. Netty's [Http2ConnectionHandler] does the framing, HPACK and flow control; this
 * handler sits in front of it, to tell a server that does not speak HTTP/2 from a broken one (ALPN, an HTTP/1.1
 * answer to the preface) in one failure, and routes each stream's frames to its slot. Its slots become usable once
 * the server's SETTINGS arrived; a connection that fails takes down only the streams in flight on it, each counted.
 */
internal class H2Connection(
    private val client: LoadClient,
    private val slots: ConnectionSlots,
    private val owner: H2Connections,
    /** `-p streams`: the stream slots it carries. */
    private val capacity: Int,
) : ChannelInboundHandlerAdapter() {
    var channel: Channel? = null
        private set
    private val attached = ArrayList<H2Stream>(capacity)
    internal val byId = IntObjectHashMap<H2Stream>(capacity * 2)
    private lateinit var handler: Http2ConnectionHandler
    private lateinit var h2: ChannelHandlerContext

    /** The server's SETTINGS arrived (and, over TLS, ALPN chose h2): streams may start. */
    internal var ready = false
        private set
    private var closed = false

    /** A GOAWAY arrived, or stream ids run out: no new streams; slots move to a new connection as they free up. */
    private var retiring = false
    internal var goAwayError = NOT_GONE

    /** A connection-level failure counted before any stream was in flight (handshake, protocol mismatch). */
    private var counted = false
    private var firstRead = true
    private var flushPending = false

    /** Writes the streams started since the last flush in one go (see [H2Connections.flush]). */
    fun flush() {
        flushPending = false
        channel?.flush()
    }

    /** May carry streams: not closed, not retiring. */
    val open: Boolean get() = ready && !closed && !retiring && channel?.isActive == true

    /** May take more slots (a connection still connecting may). */
    val accepting: Boolean get() = !closed && !retiring

    fun attach(s: H2Stream) {
        attached += s
        // Not from inside the caller (Pacing, while it dispatches): the slot is announced on the loop's next turn.
        if (ready) channel?.eventLoop()?.execute { announce(s) }
    }

    private fun announce(s: H2Stream) {
        val open = !closed && !retiring
        if (!open || s.announced || !slots.holds(s)) return
        s.announced = true
        slots.connected(s)
    }

    /** The server's first SETTINGS: its stream limit must allow [capacity]; then every slot attached may start. */
    fun settings(ctx: ChannelHandlerContext, settings: Http2Settings) {
        if (ready) return
        val max = settings.maxConcurrentStreams()
        if (max != null && max < capacity) {
            return refuse(
                ctx,
                FailureKind.IO_ERROR,
                "the server allows $max concurrent streams per HTTP/2 connection, fewer than -p streams=$capacity",
            )
        }
        ready = true
        for (s in attached.toList()) announce(s)
    }

    override fun handlerAdded(ctx: ChannelHandlerContext) {
        handler =
            // A close does not wait for the streams in flight (Netty's default waits 30 s): the client is done then.
            Http2ConnectionHandlerBuilder().server(false).validateHeaders(false).gracefulShutdownTimeoutMillis(0)
                .frameListener(H2Frames(this)).build()
        ctx.pipeline().addAfter(ctx.name(), null, handler)
        // Bytes written are reported only for requests with a body (bytes.inPerReq): only then is a handler counting
        // them in every write's path.
        if (client.mix.anyBody) ctx.pipeline().addBefore(ctx.name(), null, H2BytesWritten(client.stats))
        h2 = ctx.pipeline().context(handler)
        handler.connection().addListener(object : Http2ConnectionAdapter() {
            override fun onStreamClosed(stream: Http2Stream) {
                val s = byId.remove(stream.id()) ?: return
                val kind = if (goAwayError != NOT_GONE) FailureKind.GOAWAY else FailureKind.RESET
                val why = if (kind == FailureKind.GOAWAY) {
                    goAwayText()
                } else {
                    "stream closed before its response was complete"
                }
                if (s.failed(kind, why)) finished(s)
            }
        })
    }

    override fun channelActive(ctx: ChannelHandlerContext) {
        channel = ctx.channel()
        ctx.fireChannelActive()
    }

    /** Starts [s]'s request on a new stream; returns its id. It leaves with the batch's [H2Connections.flush]. */
    fun start(s: H2Stream): Int {
        val local = handler.connection().local()
        val id = local.incrementAndGetNextStreamId()
        byId.put(id, s)
        val entry = s.entry
        val renderer = entry.renderer
        renderer?.draw()
        val head = entry.h2Headers!!
        val headers = renderer?.h2Headers(head) ?: head
        // A templated body is rendered into a buffer of its own; a constant one is written as a view.
        val constant = entry.h2Body
        val body = if (renderer != null && constant == null) renderer.h2Body(h2.alloc()) else constant?.duplicate()
        val promise = h2.newPromise()
        handler.encoder().writeHeaders(h2, id, headers, 0, body == null, promise)
        body?.let { handler.encoder().writeData(h2, id, it, 0, true, h2.newPromise()) }
        if (promise.isDone && !promise.isSuccess) {
            byId.remove(id)
            s.failed(FailureKind.IO_ERROR, "stream not started: ${promise.cause()}")
            finished(s)
        }
        if (!flushPending) {
            flushPending = true
            owner.written(this)
        }
        if (id > LAST_STREAM_ID) retire()
        return id
    }

    /** The connect failed (counted by [ConnectionSlots.open]): its slots try again on a new connection. */
    fun reconnect() {
        closed = true
        for (s in attached.toList()) if (slots.holds(s)) owner.connect(s.slot)
    }

    /** [s]'s response ended (validated or failed): the slot carries the next request, here or on a new connection. */
    fun finished(s: H2Stream) {
        if (retiring || closed) {
            move(s)
        } else if (slots.holds(s)) {
            client.pacing.ready(s)
        }
        if (retiring && byId.isEmpty()) channel?.close()
    }

    /** A timed-out stream: reset, so that a late response is not read as the next one's. */
    fun cancel(s: H2Stream) {
        byId.remove(s.id)
        val stream = handler.connection().stream(s.id)
        if (stream != null) {
            handler.resetStream(h2, s.id, Http2Error.CANCEL.code(), h2.newPromise())
            channel?.flush()
        }
        finished(s)
    }

    /** [s] leaves this connection: its slot is disconnected and replaced by one on a new connection. */
    private fun move(s: H2Stream) {
        if (!slots.holds(s)) return
        if (s.announced) {
            s.announced = false
            slots.disconnected()
        }
        if (!client.closing) slots.replace(s)
    }

    internal fun retire() {
        if (retiring) return
        retiring = true
        for (s in attached.toList()) if (!s.inFlight) move(s)
    }

    /** A failure of the connection itself, before any stream was in flight: counted once, and the channel closed. */
    internal fun refuse(ctx: ChannelHandlerContext, kind: FailureKind, why: String) {
        if (!counted && !client.closing) {
            counted = true
            client.failures.add(kind, why)
        }
        ctx.close()
    }

    override fun channelRead(ctx: ChannelHandlerContext, msg: Any) {
        if (msg is ByteBuf) client.stats.h2Read += msg.readableBytes()
        if (firstRead && msg is ByteBuf) {
            firstRead = false
            // An HTTP/1.1 server answers the connection preface with an HTTP/1.1 error (or closes).
            if (msg.readableBytes() >= 5 && msg.toString(msg.readerIndex(), 5, StandardCharsets.US_ASCII) == "HTTP/") {
                val line = msg.toString(StandardCharsets.US_ASCII).lineSequence().first().take(60)
                msg.release()
                return refuse(ctx, FailureKind.IO_ERROR, notHttp2("answered the HTTP/2 preface in HTTP/1 (\"$line\")"))
            }
        }
        ctx.fireChannelRead(msg)
    }

    override fun userEventTriggered(ctx: ChannelHandlerContext, evt: Any) {
        if (evt is SslHandshakeCompletionEvent) {
            if (evt.isSuccess) {
                val ssl = ctx.pipeline().get(SslHandler::class.java)
                val chosen = ssl.applicationProtocol()
                if (chosen != ApplicationProtocolNames.HTTP_2) {
                    return refuse(ctx, FailureKind.IO_ERROR, notHttp2("chose ${chosen ?: "no protocol"} by TLS ALPN"))
                }
                slots.tlsSession = "${ssl.engine().session.protocol} ${ssl.engine().session.cipherSuite}, ALPN h2"
                client.stats.tlsHandshake(ssl.engine().session)
            } else {
                val cause = evt.cause()
                val why = when {
                    cause is NotSslRecordException -> "the server answered in plain text, not TLS"

                    "no_application_protocol" in "$cause" -> notHttp2(
                        "refused h2 by TLS ALPN (no_application_protocol)",
                    )

                    else -> "$cause"
                }
                return refuse(ctx, FailureKind.IO_ERROR, "TLS handshake failed: $why")
            }
        }
        ctx.fireUserEventTriggered(evt)
    }

    override fun exceptionCaught(ctx: ChannelHandlerContext, cause: Throwable) {
        lastCause = cause
        ctx.fireExceptionCaught(cause)
    }

    private var lastCause: Throwable? = null

    override fun channelInactive(ctx: ChannelHandlerContext) {
        closed = true
        if (!client.closing) {
            if (!ready) {
                val why = lastCause?.let { "$it" } ?: notHttp2("closed the connection before its HTTP/2 SETTINGS")
                refuse(ctx, FailureKind.CLOSED, why)
            }
            val inFlight = attached.count { it.inFlight && slots.holds(it) }
            val kind = if (goAwayError != NOT_GONE && goAwayError != 0L) FailureKind.GOAWAY else FailureKind.CLOSED
            val why = if (kind == FailureKind.GOAWAY) {
                goAwayText()
            } else {
                "connection closed${lastCause?.let { " ($it)" } ?: " by the server"} with $inFlight streams in flight"
            }
            for (s in attached) if (slots.holds(s)) s.failed(kind, why)
            byId.clear()
            for (s in attached.toList()) move(s)
        }
        ctx.fireChannelInactive()
    }

    private fun notHttp2(what: String) =
        "the server does not speak HTTP/2 (-p protocol=h2): it $what; is HTTP/2 enabled on it?"

    private fun goAwayText() = "the server's GOAWAY (${Http2Error.valueOf(goAwayError) ?: goAwayError}) " +
        "left the stream unanswered"

    internal companion object {
        const val NOT_GONE = -1L

        /** Well before stream ids run out (2^31 - 1): the connection retires, its slots move to a new one. */
        const val LAST_STREAM_ID = Int.MAX_VALUE - 100_000
    }
}

/** Counts the bytes of the HTTP/2 frames written on a connection (before TLS), for `bytes.inPerReq` on h2. */
internal class H2BytesWritten(private val stats: IterationStats) : ChannelOutboundHandlerAdapter() {
    override fun write(ctx: ChannelHandlerContext, msg: Any, promise: ChannelPromise) {
        if (msg is ByteBuf) stats.h2Written += msg.readableBytes()
        ctx.write(msg, promise)
    }
}
