package serverbench.app

import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.atomic.LongAdder

/**
 * How long requests waited for a database connection from the pool (HikariCP's `getConnection`, r2dbc-pool's
 * `create`), timed around the acquire itself, the same way for both pools. The database family reads and resets it
 * per iteration: when the pool, not the stack, is the limit, the wait is most of each request's latency.
 */
object PoolWait {
    private val nanos = LongAdder()
    private val acquires = LongAdder()
    private val max = AtomicLong()

    fun record(waitedNanos: Long) {
        nanos.add(waitedNanos)
        acquires.increment()
        if (waitedNanos > max.get()) max.accumulateAndGet(waitedNanos) { a, b -> maxOf(a, b) }
    }

    /** Acquires since the last reset, their mean wait and the longest, in nanoseconds. */
    class Snapshot(val acquires: Long, val meanNanos: Double, val maxNanos: Long)

    fun snapshot(): Snapshot {
        val n = acquires.sum()
        return Snapshot(n, if (n == 0L) 0.0 else nanos.sum().toDouble() / n, max.get())
    }

    fun reset() {
        nanos.reset()
        acquires.reset()
        max.set(0)
    }
}
