package serverbench.app

import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.atomic.LongAdder

/**
 * How long requests waited for a free database connection, the same for both pools: HikariCP's `getConnection`, and
 * the time r2dbc-pool kept an acquire in its queue of pending acquires (reactor-pool's own pending latency, in whole
 * milliseconds; a difference of two millisecond clock readings, so its mean over many acquires is still unbiased).
 * When the pool, not the stack, is the limit, the wait is most of each request's latency.
 *
 * An R2DBC acquire has a second part that is not a wait for a connection: r2dbc-pool hands each connection over on
 * that connection's own Reactor Netty event loop, so the caller also waits for that loop to get round to it. That
 * hand-over is timed apart ([Snapshot.handoverMeanNanos]) so neither figure hides in the other.
 * The database family reads and resets both per iteration.
 */
object PoolWait {
    private val nanos = LongAdder()
    private val acquires = LongAdder()
    private val max = AtomicLong()
    private val handed = LongAdder()
    private val handedNanos = LongAdder()
    private val queuedNanos = LongAdder()

    /** One acquire that waited [waitedNanos] for a connection (HikariCP's, or any pool's acquire that timed out). */
    fun record(waitedNanos: Long) {
        acquires.increment()
        waited(waitedNanos)
    }

    /** A wait in the pool's queue of pending acquires, reported apart from the acquire it belongs to. */
    fun queued(waitedNanos: Long) {
        queuedNanos.add(waitedNanos)
        waited(waitedNanos)
    }

    /** One acquire whose connection reached the caller [totalNanos] after it asked, its queue wait included. */
    fun handedOver(totalNanos: Long) {
        acquires.increment()
        handed.increment()
        handedNanos.add(totalNanos)
    }

    private fun waited(waitedNanos: Long) {
        nanos.add(waitedNanos)
        if (waitedNanos > max.get()) max.accumulateAndGet(waitedNanos) { a, b -> maxOf(a, b) }
    }

    /**
     * Acquires since the last reset, their mean and longest wait for a connection, and, for a pool that hands
     * connections over ([handedOver]), the mean time from a free connection to the caller; all in nanoseconds.
     */
    class Snapshot(val acquires: Long, val meanNanos: Double, val maxNanos: Long, val handoverMeanNanos: Double?)

    fun snapshot(): Snapshot {
        val n = acquires.sum()
        val h = handed.sum()
        val handedOverNanos = handedNanos.sum() - queuedNanos.sum()
        val handover = if (h == 0L) null else (handedOverNanos.toDouble() / h).coerceAtLeast(0.0)
        return Snapshot(n, if (n == 0L) 0.0 else nanos.sum().toDouble() / n, max.get(), handover)
    }

    fun reset() {
        listOf(nanos, acquires, handed, handedNanos, queuedNanos).forEach { it.reset() }
        max.set(0)
    }
}
