package serverbench.client

import io.netty.bootstrap.Bootstrap
import io.netty.channel.Channel
import io.netty.channel.ChannelHandler
import io.netty.channel.ChannelInitializer
import io.netty.channel.ChannelOption
import io.netty.channel.ManualIoEventLoop
import java.net.InetSocketAddress
import java.util.concurrent.TimeUnit

/**
 * A [LoadClient]'s connections, one per slot: opens them (retrying a failed connect), puts a new connection in the
 * slot of one that closed, and counts those open. A slot changes only here.
 */
internal class ConnectionSlots(
    private val client: LoadClient,
    size: Int,
    private val loop: ManualIoEventLoop,
    transport: Transport,
    private val address: InetSocketAddress,
    connectTimeoutMillis: Int,
) {
    /** Indexed by slot; null until a slot is first used. */
    val all = arrayOfNulls<RequestSlot>(size)

    /** `-p tls=true`: the protocol and cipher suite of the last completed handshake ("TLSv1.3 TLS_AES_..."). */
    @Volatile
    var tlsSession: String? = null

    /** Connections open now. */
    var active = 0
        private set

    /**
     * Slots whose connection has opened at least once. The start waits for these, not for [active]: a server that
     * closes each connection after its response (HTTP/1.0, `Connection: close`) never has all of them open at once.
     */
    private val openedOnce = BooleanArray(size)
    private var slotsOpened = 0
    private val bootstrap = Bootstrap()
        .group(loop)
        .channel(transport.channelClass)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)

    /**
     * Opens what the loop model opens first ([Pacing.openInitial]; closed loop: every connection, each sending its
     * first request) and runs [loop] until all are connected; throws [LoadFailure] if they are not within the connect
     * timeout (+ 1 s), or when failures exceed the tolerance.
     */
    fun openInitial(scanIntervalNanos: Long) {
        val initial = client.pacing.openInitial()
        val connectTimeout = client.settings.connectTimeout
        val deadline = System.nanoTime() + connectTimeout.toNanos() + TimeUnit.SECONDS.toNanos(1)
        while (slotsOpened < initial) {
            client.failures.failIfOverLimit()
            if (System.nanoTime() - deadline > 0) {
                throw LoadFailure(
                    "only $slotsOpened of ${all.size} connections to $address opened within " +
                        "${connectTimeout.seconds} s",
                )
            }
            client.pacing.sendReady()
            loop.run(scanIntervalNanos)
        }
    }

    /** Runs [loop] until nothing is in flight or [deadline]; returns the requests still in flight (see drain). */
    fun drain(deadline: Long, scanIntervalNanos: Long): Int {
        while (inFlight() > 0 && System.nanoTime() - deadline < 0) {
            client.failures.failIfOverLimit()
            loop.run(scanIntervalNanos)
        }
        client.failures.failIfOverLimit()
        return inFlight()
    }

    /** `-p protocol=h2`: the slots are streams, [streams] to a connection. */
    private val h2 = client.settings.http2Streams.takeIf { it > 0 }?.let { H2Connections(client, this, it) }

    /** After a batch of sends: HTTP/2 writes them out now ([H2Connections.flush]); HTTP/1.1 flushed each already. */
    fun flushWrites() {
        h2?.flush()
    }

    fun connect(slot: Int) {
        if (h2 != null) return h2.connect(slot)
        val connection = Connection(client, this, slot, replacing = all[slot] != null)
        all[slot] = connection
        open(connection, slot) { connect(slot) }
    }

    /**
     * Opens a channel ending in [connection]; a failed connect is counted, and [retry] runs a little later. [slot] keys
     * the TLS session a reconnect resumes (one per connection: an HTTP/2 connection's is its group's).
     */
    fun open(connection: ChannelHandler, slot: Int, retry: () -> Unit) {
        bootstrap.clone()
            .handler(object : ChannelInitializer<Channel>() {
                override fun initChannel(ch: Channel) {
                    // Made for the slot: its reconnect resumes the session of its previous connection.
                    client.settings.tls?.let {
                        ch.pipeline().addLast(TlsHandshakes.handler(it, ch.alloc(), address, slot))
                    }
                    ch.pipeline().addLast(connection)
                }
            })
            .connect(address)
            .addListener { f ->
                // One TCP connection, however many HTTP/2 streams it will carry (each slot is announced apart).
                if (f.isSuccess) client.stats.connects++
                if (!f.isSuccess && !client.closing) {
                    client.failures.add(FailureKind.IO_ERROR, "connect failed: ${f.cause()}")
                    // Retry later, not at once: a dead server would otherwise turn this into a busy loop.
                    loop.schedule({ if (!client.closing) retry() }, RECONNECT_DELAY_MILLIS, TimeUnit.MILLISECONDS)
                }
            }
    }

    fun connected(c: RequestSlot) {
        active++
        if (!openedOnce[c.slot]) {
            openedOnce[c.slot] = true
            slotsOpened++
        }
        client.stats.connectionsOpen(active)
        client.pacing.connected(c)
    }

    fun disconnected() {
        active--
    }

    /** [c] closed: a new connection takes its slot. */
    fun replace(c: RequestSlot) {
        client.pacing.lost(c)
        connect(c.slot)
    }

    /** Whether [c] is still the connection of its slot (not closed and replaced). */
    fun holds(c: RequestSlot): Boolean = all[c.slot] === c

    fun inFlight(): Int = all.count { it?.inFlight == true }

    /** Fails every request in flight for longer than [timeoutNanos] at [now]. */
    fun expire(now: Long, timeoutNanos: Long) {
        for (c in all) if (c != null && c.inFlight && now - c.sentAt > timeoutNanos) c.timedOut(now)
    }

    fun closeAll() {
        for (c in all) c?.channel?.close()
    }

    private companion object {
        const val RECONNECT_DELAY_MILLIS = 10L
    }
}
