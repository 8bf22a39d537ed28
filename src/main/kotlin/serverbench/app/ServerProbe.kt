package serverbench.app

import java.time.Duration
import java.util.concurrent.atomic.AtomicInteger

/**
 * What the server sees, measured inside it by a filter that runs before every handler on both stacks
 * ([ServerProbeMvc], [ServerProbeWebFlux]):
 * - requests in flight (received, response not yet complete) and their maximum, which proves the client applied the
 *   concurrency it claims: in a closed loop the maximum equals `-p concurrency` (reported as `server.inFlightMax`);
 * - a stall that tests inject ([stall]) to check that the open loop's latency shows it (coordinated omission).
 *
 * One server per JVM at a time (the fixture's rule), so process-wide state is enough. Cost per request: two atomic
 * increments and a volatile read, against tens of microseconds of HTTP handling.
 */
object ServerProbe {
    private val current = AtomicInteger()
    private val max = AtomicInteger()
    @Volatile
    private var stallUntil = 0L

    fun enter() {
        val n = current.incrementAndGet()
        while (true) {
            val m = max.get()
            if (n <= m || max.compareAndSet(m, n)) return
        }
    }

    fun exit() {
        current.decrementAndGet()
    }

    val inFlight: Int get() = current.get()

    /** Most requests in flight at once since the last [resetMax]. */
    val inFlightMax: Int get() = max.get()

    /** Starts a new window for [inFlightMax], from the requests in flight now. */
    fun resetMax() = max.set(current.get())

    /**
     * Test hook: every request that arrives in the next [duration] is held until it ends, as a server frozen by a long
     * GC pause would hold it (requests already in their handler finish normally). Never called by a benchmark.
     */
    fun stall(duration: Duration) {
        stallUntil = System.nanoTime() + duration.toNanos()
    }

    /** How long a request arriving now must be held; 0 when no stall is on. */
    fun stallRemainingNanos(): Long {
        val until = stallUntil
        if (until == 0L) return 0
        val left = until - System.nanoTime()
        return if (left > 0) left else 0
    }
}
