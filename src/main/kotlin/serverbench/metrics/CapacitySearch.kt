package serverbench.metrics

import serverbench.params.Objective
import kotlin.math.roundToLong

/**
 * The highest open-loop rate at which the server meets an [Objective] (docs/capacity.md): a rising ladder from
 * [Limits.start] (× [Limits.factor]) until a step misses it, down the ladder instead if the first one missed; then
 * bisection between the highest rate that met it and the lowest that missed, until they are within
 * [Limits.precision] of each other; then the rate found once more, to confirm it (a miss there steps down to the
 * next rate that met it, see [confirm]). Each step is one call of [step]
 * ([CapacityStep]); the search never returns a number without its [Kind].
 *
 * Why this shape: above its capacity a server's open-loop latency grows without bound (the queue grows every second),
 * below it stays near the service time, so pass/miss is a step function of the rate, up to noise; a ladder finds the
 * knee in few steps whatever its order of magnitude, bisection narrows it at one step per halving, and the
 * confirmation catches a pass that was luck. Steps are fixed-rate runs, never a rate that moves within a window: a
 * moving rate would let a backlog from one rate spill into the next one's latency.
 */
class CapacitySearch(
    private val limits: Limits,
    private val step: (Double) -> CapacityStep,
    private val progress: (CapacityStep, Int) -> Unit = { _, _ -> },
) {
    class Limits(
        /** The ladder's first rate, req/s. */
        val start: Double,
        /** The highest rate the search may try: a search that meets the objective there is a lower bound. */
        val max: Double = 1_000_000.0,
        /** Bisection stops when (missed − met) ÷ met is at most this. */
        val precision: Double = 0.03,
        /** Steps at most, the confirmation included: with the step length, the search's time bound. */
        val maxSteps: Int = 16,
        val factor: Double = 2.0,
        /** Below this rate the ladder down gives up: the objective is not met at any rate worth measuring. */
        val min: Double = 1.0,
    )

    enum class Kind(val code: Int, val label: String) {
        /** Met at [Outcome.low], missed at [Outcome.high], both measured, and [Outcome.low] confirmed. */
        BRACKETED(1, "bracketed"),

        /** Met at the highest rate tried; [Outcome.why] says why the search stopped there. */
        LOWER_BOUND(2, "lower bound"),

        /** Our load generator could not keep to the schedule: the figure is ours, not the server's. */
        CLIENT_SATURATED(3, "limited by the load generator"),

        /** The steps do not order: a rate that met the objective missed it at its confirmation. */
        INCONCLUSIVE(4, "inconclusive"),

        /** Missed even at the lowest rate the ladder may try ([Limits.min]). */
        NOT_MET(5, "not met"),
        ;

        companion object {
            fun of(code: Int): Kind? = entries.firstOrNull { it.code == code }
        }
    }

    class Outcome(
        val kind: Kind,
        /** The highest rate that met the objective (and, when bracketed, was confirmed); null if none did. */
        val low: Double?,
        /** The lowest rate that missed it; null if none did. */
        val high: Double?,
        val steps: List<CapacityStep>,
        val why: String,
    ) {
        /** `bracketed: 97–100 req/s (met at 97, missed at 100)`, one line for the console and the report. */
        fun describe(): String {
            val range = when {
                low != null && high != null -> "${rateText(low)}–${rateText(high)} req/s"
                low != null -> "≥ ${rateText(low)} req/s"
                high != null -> "< ${rateText(high)} req/s"
                else -> "no rate measured"
            }
            return "${kind.label}: $range, ${steps.size} steps; $why"
        }
    }

    private val steps = ArrayList<CapacityStep>()
    private var low: Double? = null
    private var high: Double? = null

    /** Runs the steps; the outcome holds every one of them. */
    fun run(): Outcome {
        ladderUp()?.let { return it }
        ladderDown()?.let { return it }
        val stoppedEarly = bisect()
        stoppedEarly?.takeIf { it.kind != Kind.BRACKETED }?.let { return it }
        return confirm(stoppedEarly?.why)
    }

    /** One step, or null when only the confirmation's step is left. */
    private fun take(rate: Double): CapacityStep? {
        if (steps.size >= limits.maxSteps - 1) return null
        return measure(rate)
    }

    private fun measure(rate: Double): CapacityStep {
        val s = step(rate)
        steps += s
        progress(s, steps.size)
        return s
    }

    private fun outcome(kind: Kind, why: String) = Outcome(kind, low, high, steps.toList(), why)

    private fun saturated(s: CapacityStep) =
        outcome(Kind.CLIENT_SATURATED, "at ${rateText(s.rate)} req/s: ${s.why}; the figure is ours, not the server's")

    /** Up from the start until a step misses; an outcome when the search ends here. */
    private fun ladderUp(): Outcome? {
        var rate = round(limits.start.coerceIn(limits.min, limits.max))
        while (true) {
            val s = take(rate) ?: return outcome(Kind.LOWER_BOUND, "the step limit (${limits.maxSteps}) came first")
            when (s.verdict) {
                CapacityStep.Verdict.CLIENT -> return saturated(s)

                CapacityStep.Verdict.MISSED -> {
                    high = rate
                    return null
                }

                CapacityStep.Verdict.MET -> {
                    low = rate
                    if (rate >= limits.max) {
                        return outcome(Kind.LOWER_BOUND, "met at the highest rate the search may try")
                    }
                    rate = round(minOf(rate * limits.factor, limits.max))
                }
            }
        }
    }

    /** The first step missed: down the ladder (a factor of [Limits.factor]² a step) until one meets it. */
    private fun ladderDown(): Outcome? {
        while (low == null) {
            val rate = round(high!! / (limits.factor * limits.factor))
            if (rate < limits.min) {
                return outcome(Kind.NOT_MET, "missed at every rate tried, down to ${rateText(high!!)} req/s")
            }
            val s = take(rate) ?: return outcome(Kind.NOT_MET, "the step limit came before a rate that met it")
            when (s.verdict) {
                CapacityStep.Verdict.CLIENT -> return saturated(s)
                CapacityStep.Verdict.MISSED -> high = rate
                CapacityStep.Verdict.MET -> low = rate
            }
        }
        return null
    }

    /** Halves the bracket until [Limits.precision]; an outcome only when the client stopped it, or why it stopped. */
    private fun bisect(): Outcome? {
        while (true) {
            val met = low!!
            val missed = high!!
            if ((missed - met) / met <= limits.precision) return null
            val mid = round((met + missed) / 2)
            if (mid <= met || mid >= missed) return null
            val s = take(mid) ?: return outcome(
                Kind.BRACKETED,
                "the step limit (${limits.maxSteps}) stopped the bisection at ±%.0f %%".format(
                    50 * (missed - met) / met,
                ),
            )
            when (s.verdict) {
                CapacityStep.Verdict.CLIENT -> return saturated(s)
                CapacityStep.Verdict.MISSED -> high = mid
                CapacityStep.Verdict.MET -> low = mid
            }
        }
    }

    /**
     * The rate found, once more: met again, it is the capacity. Missed, it was luck at the knee (where latency is at
     * its noisiest): the next lower rate that met the objective is confirmed instead, at most [MAX_RETREATS] times;
     * after that the steps cannot be ordered.
     */
    private fun confirm(stopped: String?): Outcome {
        var retreats = 0
        while (true) {
            val rate = low!!
            val s = measure(rate)
            when (s.verdict) {
                CapacityStep.Verdict.CLIENT -> return saturated(s)

                CapacityStep.Verdict.MET -> {
                    val retreated = if (retreats ==
                        0
                    ) {
                        ""
                    } else {
                        "; $retreats higher rate(s) met once, missed when repeated"
                    }
                    val why = stopped ?: "within %.0f %%, confirmed".format(100 * limits.precision)
                    return outcome(Kind.BRACKETED, why + retreated)
                }

                CapacityStep.Verdict.MISSED -> {
                    high = rate
                    val below = steps.filter { it.verdict == CapacityStep.Verdict.MET && it.rate < rate }
                        .maxOfOrNull { it.rate }
                    if (below == null || retreats >= MAX_RETREATS || steps.size >= limits.maxSteps) {
                        return outcome(Kind.INCONCLUSIVE, noisy(rate, s))
                    }
                    low = below
                    retreats++
                }
            }
        }
    }

    private fun noisy(rate: Double, s: CapacityStep) =
        "${rateText(rate)} req/s met the objective, then missed it when confirmed (${s.why}): the steps are too " +
            "noisy to order; longer steps (-D$STEP_PROPERTY) may order them"

    companion object {
        const val STEP_PROPERTY = "serverbench.capacity.stepSeconds"

        /** Confirmations that may step down to a lower rate that met the objective once. */
        const val MAX_RETREATS = 2

        /** Whole req/s from 20 up, tenths below: a rate the console and the report print as it was run. */
        fun round(rate: Double): Double = if (rate >=
            20
        ) {
            rate.roundToLong().toDouble()
        } else {
            (rate * 10).roundToLong() / 10.0
        }

        fun rateText(rate: Double): String = if (rate ==
            Math.floor(rate)
        ) {
            "%,d".format(rate.toLong())
        } else {
            "%.1f".format(rate)
        }
    }
}
