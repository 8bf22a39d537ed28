package serverbench.benchmarks

import org.openjdk.jmh.infra.IterationParams
import org.openjdk.jmh.runner.IterationType
import serverbench.client.ClientReport
import serverbench.client.Handshakes
import serverbench.client.RequestMix
import serverbench.metrics.Guards
import serverbench.metrics.IterationReport
import serverbench.metrics.Steadiness
import serverbench.metrics.SteadinessAdvice

/**
 * What a trial's measured iterations add up to, for its closing warning lines: how many iterations fired each guard
 * (and its last text), and the run-level steadiness verdict over their successful req/s. Warmup never counts.
 */
internal class MeasuredIterations {
    private var count = 0
    private val warnings = LinkedHashMap<String, Pair<Int, String>>()
    private val rates = ArrayList<Double>()

    /** Each client thread's own successes, summed over the measured iterations. */
    private var threadSuccesses = LongArray(0)

    /** A mix's successes per request (its entries' order), summed over the measured iterations. */
    private var entrySuccesses = LongArray(0)

    /** Connections and TLS handshakes over the measured iterations, and their wall time. */
    private var handshakes = Handshakes()
    private var wallNanos = 0L

    /** Why the measured iterations were not judged (too few), for a line of its own: it is no guard that fired. */
    private var notJudged: String? = null

    fun clear() {
        count = 0
        warnings.clear()
        rates.clear()
        threadSuccesses = LongArray(0)
        entrySuccesses = LongArray(0)
        handshakes = Handshakes()
        wallNanos = 0
        notJudged = null
    }

    /** Counts [iteration] if measured, and says whether it was the fork's last measured one. */
    fun ended(iteration: IterationParams, report: ClientReport): Boolean {
        if (iteration.type != IterationType.MEASUREMENT) return false
        if (report.wallNanos > 0) rates += report.successes / (report.wallNanos / 1e9)
        if (threadSuccesses.size != report.threads.size) threadSuccesses = LongArray(report.threads.size)
        report.threads.forEachIndexed { i, t -> threadSuccesses[i] += t.successes }
        if (entrySuccesses.size != report.entrySuccesses.size) entrySuccesses = LongArray(report.entrySuccesses.size)
        report.entrySuccesses.forEachIndexed { i, n -> entrySuccesses[i] += n }
        handshakes += report.handshakes
        wallNanos += report.wallNanos
        return ++count == iteration.count
    }

    /** The steadiness verdict over the measured iterations, on the last one; null before it. */
    fun steadiness(last: Boolean): Steadiness.Verdict? = if (last) Steadiness.judge(rates) else null

    fun record(iteration: IterationParams, report: IterationReport) {
        if (iteration.type == IterationType.MEASUREMENT) {
            for ((guard, warning) in report.guards) {
                if (warning != null) warnings[guard] = (warnings[guard]?.first ?: 0) + 1 to warning
            }
        }
        when (val verdict = report.steadiness) {
            is Steadiness.Verdict.NotSteady -> warnings[Guards.NOT_STEADY] = 0 to
                "${verdict.why}; ${SteadinessAdvice.of(verdict.flag, report.warmupSeconds)}"

            is Steadiness.Verdict.TooFew -> notJudged = verdict.why

            else -> {}
        }
    }

    /**
     * With more than one client thread: how the measured successes split between them, so a user sees that every
     * thread carried load (`client.threadSpread` in the results is the same per iteration).
     */
    fun threadLine(): String? {
        if (threadSuccesses.size < 2) return null
        val counts = threadSuccesses.toList()
        val spread = 100.0 * ClientReport.spread(counts)
        return "client threads' own successes in the measured iterations: " +
            counts.joinToString(" / ") { "%,d".format(it) } + " (spread %.1f %% of their mean)".format(spread)
    }

    /**
     * With a mix of requests: each one's share of the measured successes beside its weight's, so a user sees the mix
     * that was answered (a request that is much slower than the others is answered a little less often than it is sent
     * while the window is open, by at most the requests in flight).
     */
    fun mixLine(mix: RequestMix): String? {
        if (mix.size < 2 || entrySuccesses.size != mix.size) return null
        val total = entrySuccesses.sum().toDouble().takeIf { it > 0 } ?: return null
        val weights = mix.entries.sumOf { it.weight }.toDouble()
        return "the mix as answered in the measured iterations: " + mix.entries.mapIndexed { i, e ->
            "%s %,d (%.1f %%, weight %.1f %%)".format(
                e.name,
                entrySuccesses[i],
                100 * entrySuccesses[i] / total,
                100 * e.weight / weights,
            )
        }.joinToString("; ")
    }

    /** Where the client opened connections while measured: how many, and over TLS which handshakes they made. */
    fun handshakeLine(): String? {
        val h = handshakes
        if (h.connects == 0L || wallNanos <= 0) return null
        val perSecond = { n: Long -> "%,.0f/s".format(n / (wallNanos / 1e9)) }
        val tls = h.tlsFull + h.tlsResumed
        return "connections opened in the measured iterations: %,d (%s)".format(h.connects, perSecond(h.connects)) +
            (
                if (tls == 0L) {
                    ""
                } else {
                    "; TLS handshakes %,d full (%s), %,d resumed (%s)".format(
                        h.tlsFull,
                        perSecond(h.tlsFull),
                        h.tlsResumed,
                        perSecond(h.tlsResumed),
                    )
                }
                )
    }

    /** One line per guard that fired; a run-level guard (count 0) judges the measured iterations together. */
    fun printWarnings(runName: String, mix: RequestMix? = null) {
        threadLine()?.let { println("\nserverbench: $it") }
        mix?.let(::mixLine)?.let { println("\nserverbench: $it") }
        handshakeLine()?.let { println("\nserverbench: $it") }
        notJudged?.let { println("\nserverbench: steadiness not judged for $runName: $it") }
        for ((guard, fired) in warnings) {
            val where = if (fired.first == 0) "" else ", in ${fired.first} of $count measured iterations"
            println("\nserverbench: WARNING ($guard$where) $runName: ${fired.second}")
        }
    }
}
