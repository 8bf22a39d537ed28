package serverbench.app

import org.springframework.core.Ordered
import java.time.Duration
import java.util.concurrent.atomic.AtomicInteger

/**
 * What the server sees, measured inside it by a filter that runs before every handler on both stacks
 * ([ServerProbeMvc], [ServerProbeWebFlux]), installed only when [PROPERTY] is true:
 * - requests in flight (received, response not yet complete) and their maximum, which proves the client applied the
 *   concurrency it claims: in a closed loop the maximum equals `-p concurrency` (reported as `server.inFlightMax`);
 * - a stall that tests inject ([stall]) to check that the open loop's latency shows it (coordinated omission).
 *
 * One server per JVM at a time (the fixture's rule), so process-wide state is enough. Cost per request when on: two
 * atomic increments and a volatile read, and on WebFlux the commit action (see [PROPERTY]).
 */
object ServerProbe {
    /**
     * The switch, off by default: `-Dserverbench.serverProbe=true` (the launcher forwards it to the forks), or the same
     * Spring property. Off, neither stack registers the filter: WebFlux would otherwise pay a per-response assembly
     * (for the commit action) that MVC does not, and a harness comparing stacks must not tax one of them.
     */
    const val PROPERTY = "serverbench.serverProbe"

    private val current = AtomicInteger()
    private val max = AtomicInteger()

    @Volatile
    private var stallUntil = 0L

    @Volatile
    private var installed = false

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

    /** Most requests in flight at once since the last [resetMax]; -1 when no server runs with the filter. */
    val inFlightMax: Int get() = if (installed) max.get() else -1

    /** Called by each stack's filter as it is created and closed: the probe reads on exactly while a filter exists. */
    internal fun setInstalled(on: Boolean) {
        installed = on
    }

    /** Starts a new window for [inFlightMax], from the requests in flight now. */
    fun resetMax() = max.set(current.get())

    /**
     * Test hook: every request that arrives in the next [duration] is held until it ends, as a server frozen by a long
     * GC pause would hold it (requests already in their handler finish normally). Needs the probe on (the filter holds
     * them). Never called by a benchmark.
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

/**
 * What both stacks' probe filters share: ahead of every other filter, and the probe counts only while one is
 * installed (from the context's start to its close, which Spring calls).
 */
abstract class ProbeFilter :
    Ordered,
    AutoCloseable {
    init {
        ServerProbe.setInstalled(true)
    }

    override fun close() = ServerProbe.setInstalled(false)

    override fun getOrder() = Ordered.HIGHEST_PRECEDENCE
}
