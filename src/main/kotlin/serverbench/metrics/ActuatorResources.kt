package serverbench.metrics

import serverbench.fixture.ActuatorEndpoint
import serverbench.fixture.ServeAdmin
import java.net.InetSocketAddress

/**
 * A target's resource figures per iteration from its Spring Boot Actuator ([ActuatorEndpoint]): a team's own service
 * that runs without `scripts/serve`'s admin endpoint (which [RemoteResources] reads). Its Micrometer meters are read
 * at [begin] and [end], five requests each, and their differences taken, as [RemoteResources] takes the admin
 * endpoint's. What they can tell, and how well (docs/scaling-the-load.md, "Figures from a target's Actuator"):
 *
 * - CPU: `process.cpu.time` (ns, the JVM's own counter): exact, the reads' own handling included (a few
 *   milliseconds of the target's CPU per iteration). Without it no CPU figure; `process.cpu.usage`, a recent average,
 *   is never integrated into one.
 * - Allocation: `jvm.gc.memory.allocated` grows at each young collection by what was allocated since the last, so
 *   the difference counts the collections within the iteration: approximate, off by up to a young generation at
 *   each end, and no figure (-1, not 0) when no collection ran.
 * - Threads: `jvm.threads.peak` is the peak since the target started, which a benchmark cannot reset. When it grew
 *   during the iteration, it is that iteration's peak; otherwise the most of `jvm.threads.live` at both ends, a lower
 *   bound of it.
 * - GC pauses: `jvm.gc.pause`'s total time, every tag summed (0 while a collector bound to it has paused none).
 *
 * No figure (-1) for open fds, the heap after GC and requests in flight. [ResourceReport.clientProcessCpuNanos] and
 * the machine's busy share are this JVM's and this machine's, as [RemoteResources] gives them.
 */
class ActuatorResources internal constructor(
    private val endpoint: ActuatorEndpoint,
    /** The meters the endpoint had when probed. */
    private val meters: Set<String>,
    /** Where the server ran, for [ResourceReport.remoteServer]. */
    private val where: String,
) : ResourceSource {
    /** One reading of the meters; -1 where the target has no such meter (or it cannot tell). */
    internal class Snapshot(
        val cpuNanos: Long,
        val allocatedBytes: Long,
        val liveThreads: Int,
        val peakThreads: Int,
        val gcPauseNanos: Long,
    )

    private var start: Snapshot? = null
    private val client = ClientSpan()

    /** Which of the meters this source reads the target has, for the setup line. */
    val present: List<String> get() = METERS.filter { it in meters }

    override fun begin() {
        // CPU read last here and first at the end: its span is the iteration's, the other reads outside it.
        start = client.begin { snapshot(cpuLast = true) }
    }

    override fun end(): ResourceReport {
        val from = checkNotNull(start) { "end() before begin()" }
        val span = client.end { snapshot(cpuLast = false) }
        return report(
            from,
            span.read,
            machineBusy = span.machineBusy,
            remoteServer = where,
            clientProcessCpuNanos = span.ownCpuNanos,
        )
    }

    /**
     * The steady warmup's view of the target's JIT (`jvm.compilation.time`); null when the target has no such meter
     * (the integrator then judges this JVM's, and says so).
     */
    fun jit(): JitSource? = if (COMPILATION in meters) ActuatorJit(endpoint) else null

    override fun toString() = "$where: ${present.joinToString()}"

    private fun snapshot(cpuLast: Boolean): Snapshot {
        val others = METERS - CPU
        val order = if (cpuLast) others + CPU else listOf(CPU) + others
        // Only the meters the probe found: a missing one costs no request, and 404s each iteration say nothing new.
        // But jvm.gc.pause, which Micrometer registers at the first pause: its GC binder's other meters tell it will.
        val readings = order.filter { it in meters || (it == GC_PAUSE && ALLOCATED in meters) }
            .associateWith { endpoint.read(it) }
        return try {
            snapshot(readings::get)
        } catch (e: IllegalArgumentException) {
            throw IllegalStateException("$endpoint: ${e.message}")
        }
    }

    companion object {
        const val CPU = "process.cpu.time"
        const val ALLOCATED = "jvm.gc.memory.allocated"
        const val LIVE_THREADS = "jvm.threads.live"
        const val PEAK_THREADS = "jvm.threads.peak"
        const val GC_PAUSE = "jvm.gc.pause"
        const val COMPILATION = "jvm.compilation.time"

        /** What each iteration reads, at its start and its end. */
        val METERS = listOf(CPU, ALLOCATED, LIVE_THREADS, PEAK_THREADS, GC_PAUSE)

        /**
         * The figures of the target at [target] (over https when [tls]) from its Actuator, or from the one at
         * [override] (`-Dserverbench.targetActuator`, ActuatorEndpoint.PROPERTY) when given; one probe, once per
         * trial. Null when no Actuator metrics endpoint answers there ([absent] is told why, for a console line).
         * Throws [IllegalStateException] with one line when an Actuator answers something unreadable, or when
         * [override] names one that does not answer (it was asked for); [IllegalArgumentException] when [override]
         * is no http(s) URL.
         */
        fun probe(
            target: InetSocketAddress,
            tls: Boolean,
            override: String?,
            absent: (String) -> Unit = {},
        ): ActuatorResources? {
            val endpoint = ActuatorEndpoint.of(target, tls, override)
            val names = endpoint.probe()
            if (names == null) {
                check(override == null) {
                    "-D${ActuatorEndpoint.PROPERTY}=$override: no Actuator metrics endpoint answers at " +
                        "${endpoint.base}/metrics (is 'metrics' in management.endpoints.web.exposure.include?)"
                }
                absent("no Actuator metrics endpoint at ${endpoint.base}/metrics")
                return null
            }
            return ActuatorResources(endpoint, names, "target ${ServeAdmin.hostPort(target)} (${endpoint.base})")
        }

        /**
         * The meters [read] answers (null: no such meter) as one [Snapshot]. Throws [IllegalArgumentException] when
         * a meter's unit is not the one Micrometer gives it.
         */
        internal fun snapshot(read: (String) -> ActuatorEndpoint.Reading?): Snapshot {
            val allocated = read(ALLOCATED)
            require(allocated == null || allocated.baseUnit in setOf(null, "bytes")) {
                "$ALLOCATED's base unit is '${allocated?.baseUnit}', not bytes"
            }
            val pause = read(GC_PAUSE)
            // Micrometer registers jvm.gc.pause at the first pause; its GC binder's other meters exist from the start.
            val pauseNanos = if (pause != null) {
                pause.nanos("TOTAL_TIME")
            } else if (allocated != null) {
                0.0
            } else {
                null
            }
            return Snapshot(
                cpuNanos = read(CPU)?.nanos("COUNT").whole(),
                allocatedBytes = allocated?.get("COUNT").whole(),
                liveThreads = read(LIVE_THREADS)?.get("VALUE").whole().toInt(),
                peakThreads = read(PEAK_THREADS)?.get("VALUE").whole().toInt(),
                gcPauseNanos = pauseNanos.whole(),
            )
        }

        /** The iteration's figures from [from] to [to]: differences, -1 where either end has none. */
        internal fun report(
            from: Snapshot,
            to: Snapshot,
            machineBusy: Double = Double.NaN,
            remoteServer: String,
            clientProcessCpuNanos: Long = -1,
        ): ResourceReport {
            // The counter moves only at a collection: no growth means none ran, not that nothing was allocated.
            val allocated = ResourceReport.growth(from.allocatedBytes, to.allocatedBytes).takeIf { it > 0 } ?: -1
            val peak = when {
                from.peakThreads >= 0 && to.peakThreads > from.peakThreads -> to.peakThreads
                from.liveThreads >= 0 && to.liveThreads >= 0 -> maxOf(from.liveThreads, to.liveThreads)
                else -> -1
            }
            return ResourceReport(
                processCpuNanos = ResourceReport.growth(from.cpuNanos, to.cpuNanos),
                allocatedBytes = allocated,
                peakThreads = peak,
                machineBusy = machineBusy,
                remoteServer = remoteServer,
                clientProcessCpuNanos = clientProcessCpuNanos,
                gcPauseNanos = ResourceReport.growth(from.gcPauseNanos, to.gcPauseNanos),
            )
        }

        private fun Double?.whole(): Long = if (this == null || this < 0) -1 else Math.round(this)
    }
}
