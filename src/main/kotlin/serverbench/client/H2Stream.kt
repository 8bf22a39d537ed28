package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.ByteBufUtil
import io.netty.channel.Channel
import io.netty.handler.codec.http2.Http2Headers
import io.netty.util.AsciiString
import serverbench.client.HttpBytes.text
import java.util.concurrent.TimeUnit

/**
 * One stream slot of an HTTP/2 connection (`-p protocol=h2`): at most one request in flight, as an HTTP/1.1
 * [Connection] has, so that [Pacing] drives connections × streams of them. Its response is validated as an HTTP/1.1
 * one is, by the same [ResponseCheck] (status, `Content-Type`, the exact body or the declared body checks); a failure
 * is this stream's alone, by kind, and the other streams of the connection go on. A new instance per slot and carrier
 * ([H2Connection]).
 */
internal class H2Stream(
    private val client: LoadClient,
    private val slots: ConnectionSlots,
    val carrier: H2Connection,
    override val slot: Int,
) : RequestSlot {
    override val channel: Channel? get() = carrier.channel
    override var sentAt = 0L
        private set
    override var intendedAt = 0L
        private set
    override var inFlight = false
        private set

    /** [ConnectionSlots.connected] was called for it (its carrier was ready), so its loss is a disconnect. */
    var announced = false

    /** The HTTP/2 stream id of the request in flight. */
    var id = 0
        private set

    private var status = 0
    private var contentType: CharSequence? = null

    /**
     * Per entry of the client's mix, made with the slot: its body's comparison, kept body and shape state. The fields
     * after them are the entry in flight's, as on HTTP/1.1 ([Connection]): a single request's stay entry 0's; a mix's
     * are switched by [send].
     */
    private val bodies =
        Array(client.entries.size) { BodyMatch(client.entries[it].expectedBody, client.entries[it].check.exact) }
    private val keptBodies = Array(client.entries.size) { client.entries[it].check.newBuffer() }
    private val shapeChecks = Array(client.entries.size) { client.entries[it].request.shape?.newCheck() }

    /** The entry in flight (or last sent): what [H2Connection.start] writes and the response is held to. */
    var entry = client.entries[0]
        private set
    private var body = bodies[0]
    private var kept = keptBodies[0]
    private var shapeCheck = shapeChecks[0]

    override fun isCurrent(): Boolean = slots.holds(this) && carrier.open

    override fun isUsable(): Boolean = !inFlight && isCurrent()

    override fun send(due: Long) {
        if (client.mixed) {
            val e = client.nextEntry()
            entry = e
            body = bodies[e.index]
            kept = keptBodies[e.index]
            shapeCheck = shapeChecks[e.index]
        }
        status = 0
        contentType = null
        body.reset()
        kept?.reset()
        inFlight = true
        sentAt = System.nanoTime()
        intendedAt = if (due == 0L) sentAt else due
        id = carrier.start(this)
    }

    /** A HEADERS frame of this stream: the response head (after any 1xx), or trailers. */
    fun headers(headers: Http2Headers, endOfStream: Boolean) {
        if (!inFlight) return
        if (status == 0) {
            val code = headers.status()?.let { AsciiString.of(it).parseInt() } ?: 0
            if (code in 100..199 && !endOfStream) return
            status = code
            contentType = headers.get(CONTENT_TYPE)
        }
        if (endOfStream) complete()
    }

    /** A DATA frame of this stream: compared with the expected body as it streams past (see [ResponseParser]), or kept
     * whole for the declared body checks. */
    fun data(buf: ByteBuf, endOfStream: Boolean) {
        if (!inFlight) return
        val n = buf.readableBytes()
        if (n > 0) {
            body.add(buf, buf.readerIndex(), n, errorStatus = status !in 200..299)
            kept?.add(buf, buf.readerIndex(), n)
        }
        if (endOfStream) complete()
    }

    private fun complete() {
        val now = System.nanoTime()
        inFlight = false
        client.responses++
        val check = entry.check
        val expectedType = check.expectedType
        val typeMatches = expectedType == null || typeMatches(expectedType)
        val rejected = check.verdict(status, typeMatches, contentType, body, kept, shapeCheck)
        if (rejected == null) {
            client.succeeded(now, now - intendedAt, now - sentAt, body.length, entry.index)
        } else {
            fail(rejected.kind, rejected.detail)
        }
        carrier.finished(this)
    }

    private fun typeMatches(expectedType: ByteArray): Boolean {
        val type = contentType ?: return false
        if (type.length < expectedType.size) return false
        for (i in expectedType.indices) if (type[i].lowercaseChar().code != expectedType[i].toInt()) return false
        return true
    }

    private fun fail(kind: FailureKind, detail: String) = client.failures.add(kind, "stream $id: $detail", entry.index)

    /**
     * The stream ended without a complete response ([kind]: a reset, a GOAWAY, the connection's loss); counted once.
     * Returns whether it was in flight.
     */
    fun failed(kind: FailureKind, why: String): Boolean {
        if (!inFlight) return false
        inFlight = false
        val ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentAt)
        fail(kind, "$why ($ms ms after the request)")
        return true
    }

    /** No complete response within the timeout: a failure; the stream is reset and the slot carries the next one. */
    override fun timedOut(now: Long) {
        if (!inFlight) return
        inFlight = false
        val ms = client.settings.timeout.toMillis()
        val got = if (status == 0) "no response head" else "status $status, ${body.length} body bytes"
        fail(FailureKind.TIMEOUT, "no complete response within $ms ms ($got)")
        client.stats.unanswered(now - intendedAt)
        carrier.cancel(this)
    }

    private companion object {
        val CONTENT_TYPE = AsciiString.cached("content-type")
    }
}
