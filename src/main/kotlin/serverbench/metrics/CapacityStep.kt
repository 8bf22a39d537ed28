package serverbench.metrics

import org.HdrHistogram.Histogram
import serverbench.params.Objective

/**
 * One step of a capacity search: a fixed open-loop [rate] for a window, judged against the objective. A step counts
 * only where the client kept to its schedule (sent within [RATE_TOLERANCE] of the rate, and not saturated): one it
 * could not keep says how fast the load generator goes, not the server ([Verdict.CLIENT]).
 */
class CapacityStep(
    /** The rate asked for, req/s. */
    val rate: Double,
    /** Requests the schedule sent (or dropped) per second of the window. */
    val sentRate: Double,
    /**
     * Successful responses within the window per second of it, less the least latency (the answers to the last
     * requests sent arrive after the window): at a rate the server sustains, about the rate asked for.
     */
    val servedRate: Double,
    val p50Millis: Double,
    val p99Millis: Double,
    /** The objective's percentile, requests still unanswered after the drain counted at their wait. */
    val objectiveMillis: Double,
    val errors: Long,
    val unanswered: Int,
    val verdict: Verdict,
    /** Why the step missed, or why it does not count; empty when it met the objective. */
    val why: String,
) {
    enum class Verdict { MET, MISSED, CLIENT }

    /** `99 req/s: p50 104.8 ms, p99 114.8 ms, 0 errors: met`: a step's line, in the fork's log and the live one's. */
    fun describe(): String {
        val said = when (verdict) {
            Verdict.MET -> "met"
            Verdict.MISSED -> "missed: $why"
            Verdict.CLIENT -> "does not count: $why"
        }
        return "%s req/s: p50 %.1f ms, p99 %.1f ms, %d errors: %s".format(
            CapacitySearch.rateText(rate),
            p50Millis,
            p99Millis,
            errors,
            said,
        )
    }

    /** Its figures by name, as a search's JSON holds them (the report's chart reads these names). */
    fun fields(): Map<String, Any> = mapOf(
        "rate" to rate, "sentRate" to sentRate, "servedRate" to servedRate, "p50Ms" to p50Millis,
        "p99Ms" to p99Millis, "objectiveMs" to objectiveMillis, "errors" to errors, "unanswered" to unanswered,
        "verdict" to verdict.name, "why" to why,
    )

    /** Figures a judgement reads, so that the rule is one function a test can call with any values. */
    class Figures(
        val rate: Double,
        val windowSeconds: Double,
        /** Latency of every answered request, µs, from its scheduled send (corrected for coordinated omission). */
        val latencyMicros: Histogram,
        /** Successful responses within the window (the drain's late answers are in [latencyMicros] only). */
        val successes: Long,
        val errors: Long,
        /** Requests still unanswered when the drain after the window gave up, after [unansweredWaitMicros]. */
        val unanswered: Int,
        val unansweredWaitMicros: Long,
        val scheduled: Long,
        val late: Long,
        /** All connections were busy when a request was due: the server held them, not the client. */
        val capReached: Boolean,
        /** The clientSaturated guard's line ([Guards]), or null. */
        val clientSaturated: String?,
    )

    companion object {
        /** A step is valid only if the client sent within 2 % of the rate (issue 38; wrk2's own check is 5 %). */
        const val RATE_TOLERANCE = 0.02

        fun judge(objective: Objective, f: Figures): CapacityStep {
            val latency = f.latencyMicros.copy()
            if (f.unanswered > 0) {
                // Unanswered requests waited at least this long: counted, or an overload would look faster.
                latency.recordValueWithCount(f.unansweredWaitMicros.coerceAtLeast(1), f.unanswered.toLong())
            }
            val sentRate = f.scheduled / f.windowSeconds
            val p50 = f.latencyMicros.getValueAtPercentile(50.0) / 1000.0
            // Answers within the window: those to the requests sent in its last service time (the least latency, no
            // queueing in it) arrive after it, so the window they fill is that much shorter. Not the median: a
            // backlog that grows raises the median, and the rate served would look kept.
            val leastSeconds = f.latencyMicros.minValue / 1e6
            val answering = (f.windowSeconds - leastSeconds).coerceAtLeast(f.windowSeconds / 2)
            val servedRate = f.successes / answering
            val p99 = f.latencyMicros.getValueAtPercentile(99.0) / 1000.0
            val atObjective = if (latency.totalCount == 0L) {
                Double.POSITIVE_INFINITY
            } else {
                latency.getValueAtPercentile(objective.percentile) / 1000.0
            }
            val (verdict, why) = verdict(objective, f, sentRate, servedRate, atObjective)
            return CapacityStep(
                f.rate, sentRate, servedRate, p50, p99, atObjective, f.errors, f.unanswered, verdict, why,
            )
        }

        private fun verdict(
            objective: Objective,
            f: Figures,
            sentRate: Double,
            servedRate: Double,
            atObjective: Double,
        ): Pair<Verdict, String> {
            // Late sends are in the latency already (it runs from the scheduled send); only a schedule not kept
            // makes the step another rate than asked.
            val clientBehind = !f.capReached && sentRate < (1 - RATE_TOLERANCE) * f.rate
            val served = (1 - RATE_TOLERANCE) * f.rate
            val pName = objective.text.substringBefore(':')
            val behind = "the client sent %.0f of %.0f req/s on schedule (%d late): the load generator could not " +
                "keep up"
            return when {
                f.clientSaturated != null -> Verdict.CLIENT to f.clientSaturated

                clientBehind -> Verdict.CLIENT to behind.format(sentRate, f.rate, f.late)

                f.errors > 0 -> Verdict.MISSED to "${f.errors} failed requests"

                atObjective > objective.limitMillis ->
                    Verdict.MISSED to "%s %.1f ms > %s".format(pName, atObjective, objective.describe()) +
                        (if (f.unanswered > 0) " (${f.unanswered} unanswered counted)" else "")

                servedRate < served -> Verdict.MISSED to "served %.0f of %.0f req/s".format(servedRate, f.rate)

                else -> Verdict.MET to ""
            }
        }
    }
}
