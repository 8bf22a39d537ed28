package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.channel.Channel
import io.netty.channel.ChannelHandlerContext
import io.netty.channel.ChannelInboundHandlerAdapter
import io.netty.handler.ssl.NotSslRecordException
import io.netty.handler.ssl.SslHandler
import io.netty.handler.ssl.SslHandshakeCompletionEvent
import java.util.concurrent.TimeUnit

/**
 * One connection of a [LoadClient], in one of its slots: at most one request in flight; a new instance per
 * (re)connect. It writes the client's shared request bytes, parses the response with [ResponseParser], and tells the
 * client how each request ended: a success with its times, or a failure by kind saying what was received.
 */
internal class Connection(
    private val client: LoadClient,
    private val slots: ConnectionSlots,
    override val slot: Int,
    /** It replaces a closed connection: its first request waited for it to open (see [send]). */
    private val replacing: Boolean = false,
) : ChannelInboundHandlerAdapter(),
    RequestSlot {
    override var channel: Channel? = null
        private set

    /** When the request in flight was written. */
    override var sentAt = 0L
        private set

    /** When the request was due: [sentAt] in closed loop; the schedule's time in open loop. */
    override var intendedAt = 0L
        private set
    override var inFlight = false
        private set

    /** Set once this request's failure has been counted, so closing the channel does not count it twice. */
    private var counted = false

    /**
     * Per entry of the client's mix, made with the connection: a parser (holding the entry's expected body, its
     * Content-Type, HEAD framing and kept body), its shape's state and a view of its bytes. The fields after them are
     * the entry in flight's: a single request's stay entry 0's for the connection's life; a mix's are switched by
     * [send], reading three arrays, so the response path reads fields in both cases.
     */
    private val parsers = Array(client.entries.size) { i ->
        val e = client.entries[i]
        ResponseParser(e.expectedBody, e.check.expectedType, e.check.exact, e.check.newBuffer(), headRequest = e.head)
    }
    private val shapeChecks = Array(client.entries.size) { client.entries[it].request.shape?.newCheck() }

    /** Each entry's view of its request bytes, rewound for each send instead of allocating a new view. */
    private val requestViews = Array(client.entries.size) { i ->
        client.entries[i].bytes.duplicate().also { it.readerIndex(it.writerIndex()) }
    }
    private var entry = client.entries[0]
    private var parser = parsers[0]
    private var shapeCheck = shapeChecks[0]
    private var requestView = requestViews[0]

    /** Requests sent on this connection, and bytes received for the current one: for timeout messages only. */
    private var sent = 0L
    private var received = 0L
    private val openedAt = System.nanoTime()

    /** Unparsed bytes of a response head or chunk line split across reads; null on the usual path. */
    private var cumulation: ByteBuf? = null

    /** What a timed-out request got, to tell a server that never answered from one that stopped mid-response. */
    private fun progress(): String {
        val age = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - openedAt)
        val got = if (received == 0L) "nothing received" else "$received bytes received, status ${parser.status}"
        return "$got; request $sent on a connection open for $age s"
    }

    override fun channelActive(ctx: ChannelHandlerContext) {
        channel = ctx.channel()
        slots.connected(this)
    }

    /** Still the connection of its slot (not closed and replaced) and open. */
    override fun isCurrent(): Boolean = slots.holds(this) && channel?.isActive == true

    /** Open, not replaced, nothing in flight: may carry the next request. */
    override fun isUsable(): Boolean = !inFlight && isCurrent()

    /** Sends the request; [due] is its scheduled time in open loop (0 in closed loop: due when sent). */
    override fun send(due: Long) {
        val ch = channel!!
        if (client.mixed) {
            val e = client.nextEntry()
            entry = e
            parser = parsers[e.index]
            shapeCheck = shapeChecks[e.index]
            requestView = requestViews[e.index]
        }
        sent++
        received = 0
        parser.reset()
        counted = false
        inFlight = true
        sentAt = System.nanoTime()
        // Closed loop: a replacement's first request was due when the connection before it closed, so its latency
        // holds the connect and the TLS handshake, as a real client's request waits for them.
        intendedAt = if (due != 0L) {
            due
        } else if (replacing && sent == 1L) {
            openedAt
        } else {
            sentAt
        }
        val renderer = entry.renderer
        val bytes = if (renderer != null) {
            renderer.draw()
            renderer.writeH1(ch.alloc())
        } else if (requestView.isReadable) {
            // A view still holding unwritten bytes would be queued in the channel, so it gets a fresh one.
            entry.bytes.duplicate()
        } else {
            // The previous request was fully written before its response arrived, so the view can be rewound.
            requestView.readerIndex(0)
        }
        ch.writeAndFlush(bytes, ch.voidPromise())
    }

    override fun channelRead(ctx: ChannelHandlerContext, msg: Any) {
        val read = msg as ByteBuf
        received += read.readableBytes()
        try {
            if (!inFlight) {
                // Nothing was asked on this connection: after a response we gave up on, the channel is already
                // closing; otherwise the server sent bytes nobody requested.
                if (!counted && ctx.channel().isActive) {
                    val n = read.readableBytes()
                    client.failures.add(
                        FailureKind.INVALID_BODY,
                        "$n unexpected bytes after a complete response",
                        entry.index,
                    )
                    counted = true
                    ctx.close()
                }
                return
            }
            val input = cumulation?.writeBytes(read) ?: read
            when (parser.parse(input)) {
                ResponseParser.COMPLETE ->
                    if (input.isReadable) {
                        malformed(ctx, "${input.readableBytes()} bytes after the end of the response")
                    } else {
                        complete(ctx)
                    }

                ResponseParser.MALFORMED -> malformed(ctx, parser.problem)

                else -> if (input.isReadable && input === read) {
                    cumulation = ctx.alloc().heapBuffer(input.readableBytes() * 2).writeBytes(input)
                }
            }
            cumulation?.let { if (!it.isReadable || !inFlight) dropCumulation() else it.discardReadBytes() }
        } finally {
            read.release()
        }
    }

    private fun dropCumulation() {
        cumulation?.release()
        cumulation = null
    }

    private fun complete(ctx: ChannelHandlerContext) {
        val now = System.nanoTime()
        inFlight = false
        client.responses++
        val rejected = entry.check.verdict(
            parser.status,
            parser.contentTypeMatches,
            parser.contentType,
            parser.bodyMatch,
            parser.kept,
            shapeCheck,
        )
        if (rejected == null) {
            client.succeeded(now, now - intendedAt, now - sentAt, received, entry.index)
        } else {
            client.failures.add(rejected.kind, rejected.detail, entry.index)
        }
        next(ctx)
    }

    /** After a response: reconnect when the server or -p requestsPerConnection closes, else ready for the next. */
    private fun next(ctx: ChannelHandlerContext) {
        val limit = client.settings.requestsPerConnection
        when {
            !parser.keepAlive -> {
                // The server announced the close (Tomcat does after max-keep-alive-requests): not a failure.
                client.stats.reconnects++
                ctx.close()
            }

            // -p requestsPerConnection: the client closes and reconnects on purpose (not counted as a reconnect).
            limit > 0 && sent >= limit -> ctx.close()

            else -> client.pacing.ready(this)
        }
    }

    private fun malformed(ctx: ChannelHandlerContext, why: String?) {
        if (inFlight && !counted) {
            counted = true
            inFlight = false
            client.failures.add(FailureKind.INVALID_BODY, "malformed HTTP response: $why", entry.index)
        }
        ctx.close()
    }

    /** The request in flight got no complete response within the timeout: a failure, and the connection is replaced. */
    override fun timedOut(now: Long) {
        inFlight = false
        counted = true
        val ms = client.settings.timeout.toMillis()
        client.failures.add(FailureKind.TIMEOUT, "no complete response within $ms ms (${progress()})", entry.index)
        client.stats.unanswered(now - intendedAt)
        channel?.close()
    }

    override fun channelInactive(ctx: ChannelHandlerContext) {
        slots.disconnected()
        dropCumulation()
        if (client.closing) return
        if (inFlight && !counted && parser.endOfInput() == ResponseParser.COMPLETE) {
            complete(ctx)
        }
        if (inFlight && !counted) {
            counted = true
            val ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt)
            client.failures.add(
                FailureKind.CLOSED,
                "connection closed by the server before the response was complete ($ms ms after the request)",
                entry.index,
            )
        }
        inFlight = false
        slots.replace(this)
    }

    /** `-p tls=true`: a failed handshake is a failure even with nothing in flight (it would retry silently else). */
    override fun userEventTriggered(ctx: ChannelHandlerContext, evt: Any) {
        if (evt is SslHandshakeCompletionEvent) {
            if (evt.isSuccess) {
                val session = ctx.pipeline().get(SslHandler::class.java).engine().session
                slots.tlsSession = "${session.protocol} ${session.cipherSuite}"
                client.stats.tlsHandshake(session)
            } else if (!counted && !client.closing) {
                counted = true
                inFlight = false
                val cause = evt.cause()
                // Netty's message dumps the whole plain-text answer in hex; what it means fits in a few words.
                val why = if (cause is NotSslRecordException) "the server answered in plain text, not TLS" else "$cause"
                client.failures.add(FailureKind.IO_ERROR, "TLS handshake failed: $why")
                ctx.close()
            }
        }
        ctx.fireUserEventTriggered(evt)
    }

    override fun exceptionCaught(ctx: ChannelHandlerContext, cause: Throwable) {
        if (inFlight && !counted) {
            counted = true
            inFlight = false
            client.failures.add(FailureKind.IO_ERROR, cause.toString(), entry.index)
        }
        ctx.close()
    }
}

/**
 * A body that is not the expected one, in one line: its [sample], [length] and the [expected] body; the first
 * [difference] only where the sample does not hold the whole body (a short body shows its difference itself).
 */
internal fun invalidBody(sample: String?, length: Long, difference: String?, expected: String): String {
    val differs = difference?.takeIf { length > (sample?.length ?: 0) }
        ?.let { "; first difference ${it.replace(Regex("\\s+"), " ")}" } ?: ""
    return "body \"${bodySample(sample ?: "", length)}\" ($length bytes), expected \"${oneLine(expected)}\"$differs"
}

/**
 * [sample], the first [ResponseParser.SAMPLE_BYTES] bytes of a body of [length] bytes, on one line, with "…" where the
 * body was longer: a value cut at the sample's end (`"at":"2026-12-02T00:`) must not read as the whole value.
 */
internal fun bodySample(sample: String, length: Long): String {
    val line = oneLine(sample)
    return if (length > ResponseParser.SAMPLE_BYTES && !line.endsWith("…")) "$line…" else line
}

/** A response's text for a failure message: on one line, at most [ResponseParser.SAMPLE_BYTES] characters. */
internal fun oneLine(s: String): String {
    val flat = s.replace(Regex("\\s+"), " ").trim()
    val max = ResponseParser.SAMPLE_BYTES
    return if (flat.length > max) flat.take(max) + "…" else flat
}
