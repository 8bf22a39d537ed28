package serverbench.metrics

import serverbench.client.ClientReport
import serverbench.client.ClientSettings
import serverbench.client.LoadClient
import serverbench.fixture.CpuPlacement
import serverbench.params.CpuParams

/**
 * Checks that a measured iteration's figures can be trusted; each fired guard is a warning line in the console (once
 * per run, by the benchmark) and a `warning.<name>` secondary result in the JSON: the fraction of measured iterations
 * in which it fired (0 = never).
 *
 * - `clientSaturated`: a client thread neared a whole core (≥ 0.9: it is the bottleneck, however many cores the
 *   machine has; the line names `-p clientThreads` with twice the threads), or ≥ 0.9 of its own quota
 *   (`-Dserverbench.clientCpus`), or the client used more than half a core
 *   while the machine's cores were ≥ 90 % busy (all processes, from `/proc/stat`: on a shared machine other processes
 *   keep this JVM below that). Client and server share the cores, so the client's CPU is taken from the server: req/s
 *   understates the server.
 * - `littlesLaw` (closed loop, iterations of at least 10 mean latencies): req/s × mean latency ÷ concurrency should be
 *   1 (each connection always has exactly one request in flight). Outside [0.9, 1.1], requests spent time the latency
 *   does not show (the client slow to send the next request, failures, reconnects), or the concurrency was not what was
 *   asked. When `clientSaturated` fired too, the line names that as the cause instead.
 * - `unanswered`: requests sent before the iteration were still unanswered at its end, older than the iteration and
 *   3 × its p99. A closed loop's latency covers answered requests only, so starved connections would otherwise be
 *   invisible until the client timeout.
 * - `behindSchedule` (open loop): more than 1 % of the requests went out over 1 ms late, or any was dropped: the
 *   offered load was not the `-p rate` asked for.
 */
object Guards {
    const val CLIENT_SATURATED = "clientSaturated"
    const val LITTLES_LAW = "littlesLaw"
    const val BEHIND_SCHEDULE = "behindSchedule"
    const val UNANSWERED = "unanswered"

    /**
     * Run-level (see [Steadiness.judge]): measured iterations that trend or scatter too much to compare; below
     * [Steadiness.MIN_ITERATIONS] not judged, and then not written at all.
     */
    const val NOT_STEADY = "notSteady"

    /** The per-iteration guards [check] judges, each written as `warning.<name>`. */
    val NAMES = listOf(CLIENT_SATURATED, UNANSWERED, BEHIND_SCHEDULE, LITTLES_LAW)
    const val WARNING_PREFIX = "warning."

    /** The client thread alone at this share of a core is the bottleneck. */
    const val CLIENT_CORE = 0.9

    /** The guards that apply to this loop model, each with the warning text if it fired (null if not). */
    fun check(report: IterationReport, cores: Int = Runtime.getRuntime().availableProcessors()): Map<String, String?> {
        val client = report.client
        val out = LinkedHashMap<String, String?>()
        out[CLIENT_SATURATED] = clientSaturated(report, cores)
        out[UNANSWERED] = unanswered(client)
        if (client.openLoop) {
            out[BEHIND_SCHEDULE] = behindSchedule(client)
        } else {
            out[LITTLES_LAW] = littlesLaw(report, saturated = out[CLIENT_SATURATED] != null)
        }
        return out
    }

    private fun clientSaturated(report: IterationReport, cores: Int): String? {
        val client = report.client
        val wall = client.wallNanos.toDouble()
        val clientCores = if (wall > 0) client.clientCpuNanos / wall else 0.0
        val machineBusy = report.resources?.machineBusy ?: Double.NaN
        return clientBottleneck(report) ?: if (clientCores > 0.5 && machineBusy >= 0.9) {
            (
                "the load client used %.2f cores while the machine's %d cores were %.0f %% busy: the client " +
                    "takes CPU from the server, so req/s understates it"
                ).format(clientCores, cores, 100 * machineBusy)
        } else {
            null
        }
    }

    /**
     * The half of `clientSaturated` that says the client cannot go faster: a client thread near a whole core, or the
     * client near its own quota (`-Dserverbench.clientCpus`). (The other half, a busy client on a busy machine, says
     * it takes the server's CPU, which the server's figures show.)
     */
    fun clientBottleneck(report: IterationReport): String? {
        val client = report.client
        val wall = client.wallNanos.toDouble()
        val clientCores = if (wall > 0) client.clientCpuNanos / wall else 0.0
        val machineBusy = report.resources?.machineBusy ?: Double.NaN
        val threads = client.threads
        val busiest = threads.indices.maxByOrNull { threads[it].cores } ?: 0
        val busiestCores = threads.getOrNull(busiest)?.cores ?: clientCores
        val bottleneck = "of a core: the client is the bottleneck, so req/s understates the server"
        val quota = report.budget?.clientCpus
        return when {
            quota != null && clientCores >= CLIENT_CORE * quota ->
                (
                    "the load client used %.2f cores of its quota of %s (-D%s): the client is the bottleneck, so " +
                        "req/s understates the server"
                    ).format(clientCores, CpuPlacement.format(quota), CpuParams.CLIENT_CPUS_PROPERTY)

            busiestCores >= CLIENT_CORE && threads.size <= 1 ->
                "the load client's thread used %.2f $bottleneck (%s)".format(
                    busiestCores,
                    fix(threads.size, machineBusy),
                )

            busiestCores >= CLIENT_CORE ->
                "client thread %d of %d used %.2f $bottleneck (%s)".format(
                    busiest,
                    threads.size,
                    busiestCores,
                    fix(threads.size, machineBusy),
                )

            else -> null
        }
    }

    private fun unanswered(client: ClientReport): String? {
        if (client.unanswered <= 0) return null
        val text = "%d requests were still unanswered at the iteration's end after up to %.1f s, longer than the " +
            "iteration and 3 × its p99: the server starves some connections (e.g. a blocked event loop that " +
            "does not accept), and no latency figure includes their wait; a timeout " +
            "(-D${ClientSettings.TIMEOUT_PROPERTY}) would turn them into errors"
        return text.format(client.unanswered, client.oldestUnansweredNanos / 1e9)
    }

    private fun behindSchedule(client: ClientReport): String? {
        val sent = client.successes + client.failures.total
        val lateShare = if (sent > 0) client.late.toDouble() / sent else 0.0
        if (lateShare <= 0.01 && client.dropped <= 0) return null
        val why = if (client.capReached) {
            "all ${client.connections} connections were busy at times (raise -p concurrency, or the server " +
                "cannot take -p rate)"
        } else {
            "the client itself could not keep up (the machine is saturated)"
        }
        val rate = LoadClient.rateText(client.rate)
        return "open loop fell behind its schedule of $rate req/s: ${client.late} of $sent requests went out " +
            "over 1 ms late, ${client.dropped} dropped; $why"
    }

    private fun littlesLaw(report: IterationReport, saturated: Boolean): String? {
        val ratio = littlesLawRatio(report)
        if (ratio.isNaN() || ratio in 0.9..1.1) return null
        // One cause named once: a saturated client delays its sends, which is what clientSaturated says.
        val why = if (saturated) {
            "the load client is saturated (clientSaturated), so requests waited in it before they were sent"
        } else {
            "requests spent time the latency does not show (client slow to send, failures or reconnects)"
        }
        return "Little's law does not hold: req/s × mean latency ÷ concurrency = %.3f, outside [0.9, 1.1]: %s"
            .format(ratio, why)
    }

    /**
     * The fix for a saturated client: twice the threads; but where the machine's cores were all busy, more client
     * threads would only take the server's (measured: docs/scaling-the-load.md), so the server needs a host of its own.
     */
    private fun fix(threads: Int, machineBusy: Double) = if (machineBusy >= 0.9) {
        "the machine's cores were %.0f %% busy, so more client threads would take the server's: run the server on its "
            .format(100 * machineBusy) + "own host (-Dserverbench.target)"
    } else {
        "more client threads: -p clientThreads=${2 * threads}"
    }

    /**
     * Closed loop: successes per second × mean latency ÷ connections (1.0 when every connection is always busy). NaN
     * (not checked) when the iteration is shorter than 10 mean latencies: the law holds over long windows, and in a
     * short one the requests straddling its edges dominate.
     */
    fun littlesLawRatio(report: IterationReport): Double =
        littlesLawTerms(report)?.let { (latency, connection) -> latency / connection } ?: Double.NaN

    /**
     * The ratio's terms, so iterations pool as sums: seconds of latency of the successes (successes × mean latency),
     * and seconds of connection time (wall × connections). Null where undefined (see [littlesLawRatio]).
     */
    fun littlesLawTerms(report: IterationReport): Pair<Double, Double>? {
        val c = report.client
        if (c.successes == 0L || c.wallNanos <= 0 || c.connections <= 0) return null
        val meanSeconds = c.latencyMicros.mean / 1e6
        val wallSeconds = c.wallNanos / 1e9
        if (meanSeconds * 10 > wallSeconds) return null
        return c.successes * meanSeconds to wallSeconds * c.connections
    }
}
