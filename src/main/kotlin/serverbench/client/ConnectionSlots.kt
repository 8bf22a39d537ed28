package serverbench.client

import io.netty.bootstrap.Bootstrap
import io.netty.channel.Channel
import io.netty.channel.ChannelInitializer
import io.netty.channel.ChannelOption
import io.netty.channel.EventLoop
import java.net.InetSocketAddress
import java.util.concurrent.TimeUnit

/**
 * A [LoadClient]'s connections, one per slot: opens them (retrying a failed connect), puts a new connection in the
 * slot of one that closed, and counts those open. A slot changes only here.
 */
internal class ConnectionSlots(
    private val client: LoadClient,
    size: Int,
    private val loop: EventLoop,
    transport: Transport,
    private val address: InetSocketAddress,
    connectTimeoutMillis: Int,
) {
    /** Indexed by slot; null until a slot is first used. */
    val all = arrayOfNulls<Connection>(size)

    /** Connections open now. */
    var active = 0
        private set
    private val bootstrap = Bootstrap()
        .group(loop)
        .channel(transport.channelClass)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)

    fun connect(slot: Int) {
        val connection = Connection(client, this, slot)
        all[slot] = connection
        bootstrap.clone()
            .handler(object : ChannelInitializer<Channel>() {
                override fun initChannel(ch: Channel) {
                    ch.pipeline().addLast(connection)
                }
            })
            .connect(address)
            .addListener { f ->
                if (!f.isSuccess && !client.closing) {
                    client.failures.add(FailureKind.IO_ERROR, "connect failed: ${f.cause()}")
                    // Retry later, not at once: a dead server would otherwise turn this into a busy loop.
                    loop.schedule({ if (!client.closing) connect(slot) }, RECONNECT_DELAY_MILLIS, TimeUnit.MILLISECONDS)
                }
            }
    }

    fun connected(c: Connection) {
        active++
        client.stats.connectionsOpen(active)
        client.pacing.connected(c)
    }

    fun disconnected() {
        active--
    }

    /** [c] closed: a new connection takes its slot. */
    fun replace(c: Connection) {
        client.pacing.lost(c)
        connect(c.slot)
    }

    /** Whether [c] is still the connection of its slot (not closed and replaced). */
    fun holds(c: Connection): Boolean = all[c.slot] === c

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
