package serverbench.client

/**
 * The HTTP/2 connections of a [LoadClient] (`-p protocol=h2`): slot `i` is stream `i % streams` of connection
 * `i / streams`, so `connections × streams` slots keep that many requests in flight on `connections` connections. A
 * connection that closes (or retires after a GOAWAY) hands each of its slots to a new one as the slot is replaced.
 */
internal class H2Connections(
    private val client: LoadClient,
    private val slots: ConnectionSlots,
    private val streams: Int,
) {
    private val carriers = arrayOfNulls<H2Connection>((slots.all.size + streams - 1) / streams)

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
