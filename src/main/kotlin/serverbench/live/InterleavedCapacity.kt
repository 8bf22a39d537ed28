package serverbench.live

import serverbench.metrics.CapacitySearch
import serverbench.metrics.CapacityStep
import kotlin.math.abs
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt
import kotlin.random.Random

/**
 * Capacity searches of several sides at once, so that a capacity holds on a rerun and two stacks' capacities compare
 * as a ratio with an interval (docs/capacity.md). A search of one side after the other lets the machine's drift over
 * minutes land on some steps and not others; here every side takes its next step in the same round, the sides in a
 * random order that the next round reverses (as [Interleaving] orders a live comparison's windows), so drift lands on
 * all sides alike. Apart from the servers ([step] runs one open-loop step of a side at a rate), so that a test drives
 * it with stubs whose capacity drifts.
 *
 * Each side's search:
 * 1. **a ladder** to a bracket, as [CapacitySearch]'s: × [CapacitySearch.Limits.factor] up from the start until a step
 *    misses the objective (down, by its square, if the first one missed), then bisection to within
 *    [CapacitySearch.Limits.precision]: the first estimate, the bracket's geometric middle;
 * 2. **[Plan.repeats] − 1 fresh searches**, each from rates ± [Plan.spread] around the estimates so far (widened
 *    until one meets and one misses), bisected to the same precision. A repeat starts only when every side has ended
 *    the one before, so the sides' estimates of one repeat come from the same minutes: each repeat gives one log
 *    ratio, and the ratio's 95 % interval is Student's t over the repeats ([ratio]);
 * 3. **a confirmation**: the median of the repeats' met rates, [Plan.confirmations] steps at it, every one meeting
 *    the objective. A miss steps the rate down by the precision and confirms again ([Plan.retreats] times at most):
 *    a rate that met once and tipped when repeated is not the capacity. What "holds" was tested as is the label.
 *
 * A side whose repeats spread by more than [Plan.unstable] (sd of their logs) is labelled unstable, with that spread,
 * and gets no verdict.
 */
class InterleavedCapacity(
    private val sides: Int,
    private val plan: Plan,
    private val random: Random,
    /** Asked before each step: true ends every search there (an interrupt), keeping every step and repeat so far. */
    private val stopped: () -> Boolean = { false },
    private val step: (side: Int, rate: Double) -> CapacityStep,
) {
    class Plan(
        val limits: CapacitySearch.Limits,
        /**
         * Searches a side, the ladder's included: the interval's degrees of freedom are one fewer. 5, as with 4 a
         * 10 % difference on a machine drifting ± 20 % was found in 70 % of simulated searches, with 5 in 90 %, with 6
         * in 96 % at 6 more steps a side (InterleavedCapacityTest's stubs).
         */
        val repeats: Int = 5,
        /** A repeat's first bracket around the estimates so far, as a share. */
        val spread: Double = 0.10,
        /** Steps in a row at the confirmed rate, all meeting the objective. */
        val confirmations: Int = 3,
        /** Times a confirmation that missed may step down by the precision before the side is unstable. */
        val retreats: Int = 3,
        /** The repeats' spread (sd of their logs) above which a side's capacity is unstable. */
        val unstable: Double = 0.10,
        /** Steps a side at most: the search's time bound with the step length. */
        val maxSteps: Int = 60,
    ) {
        init {
            require(repeats >= 2) { "a capacity interval needs 2 or more repeats, was $repeats" }
            require(confirmations >= 1) { "confirmations must be 1 or more, was $confirmations" }
        }
    }

    /** One side's search: the capacity that held (null if none), each repeat's estimate, every step, its label. */
    class Side(
        val side: Int,
        val capacity: Double?,
        val estimates: List<Double>,
        val steps: List<CapacityStep>,
        val label: String,
        val stable: Boolean,
    )

    /** One side's search as a generator of rates, driven round by round by [run]. */
    private class SideSearch(val index: Int, private val plan: Plan) {
        val steps = ArrayList<CapacityStep>()
        val estimates = ArrayList<Double>()
        val met = ArrayList<Double>()

        /** Each repeat's highest met rate: the confirmation starts from their median. */
        val repeatMet = ArrayList<Double>()
        var last: CapacityStep? = null
        var capacity: Double? = null
        var label = "not started"
        var stable = true

        /** Rates to try, [BARRIER] where a repeat ends; [last] holds the step of the rate before when it resumes. */
        val rates: Iterator<Double> = iterator {
            search()
            finished = true
        }

        /** Its search has ended (with a capacity or the label that says why none). */
        var finished = false

        private suspend fun SequenceScope<Double>.tryRate(rate: Double): CapacityStep {
            yield(rate)
            return last!!
        }

        private fun limited() = steps.size >= plan.maxSteps

        private suspend fun SequenceScope<Double>.search() {
            val limits = plan.limits
            val bracket = ladder(limits) ?: return
            var (low, high) = bracket
            bisect(low, high) ?: return
            for (repeat in 2..plan.repeats) {
                yield(BARRIER)
                val center = geometricMean(estimates)
                low = CapacitySearch.round(center * (1 - plan.spread))
                high = CapacitySearch.round(center * (1 + plan.spread))
                val found = widen(low, high) ?: return
                bisect(found.first, found.second) ?: return
            }
            yield(BARRIER)
            confirm()
        }

        /** Up (or down) the ladder to a met and a missed rate, or null with the label that says why not. */
        private suspend fun SequenceScope<Double>.ladder(limits: CapacitySearch.Limits): Pair<Double, Double>? {
            var low: Double? = null
            var high: Double? = null
            var rate = CapacitySearch.round(limits.start.coerceIn(limits.min, limits.max))
            while (high == null) {
                if (limited()) return end("the step limit (${plan.maxSteps}) came before a missed rate")
                val s = tryRate(rate)
                when (s.verdict) {
                    CapacityStep.Verdict.CLIENT -> return end(client(s))

                    CapacityStep.Verdict.MISSED -> high = rate

                    CapacityStep.Verdict.MET -> {
                        low = rate
                        met += rate
                        if (rate >= limits.max) return end("met at the highest rate the search may try")
                        rate = CapacitySearch.round(minOf(rate * limits.factor, limits.max))
                    }
                }
            }
            while (low == null) {
                rate = CapacitySearch.round(high!! / (limits.factor * limits.factor))
                if (rate < limits.min || limited()) return end("missed at every rate tried, down to $high req/s")
                val s = tryRate(rate)
                when (s.verdict) {
                    CapacityStep.Verdict.CLIENT -> return end(client(s))

                    CapacityStep.Verdict.MISSED -> high = rate

                    CapacityStep.Verdict.MET -> {
                        low = rate
                        met += rate
                    }
                }
            }
            return low to high!!
        }

        /** A repeat's bracket: [low] must meet and [high] miss; each is moved out by the spread until they do. */
        private suspend fun SequenceScope<Double>.widen(low0: Double, high0: Double): Pair<Double, Double>? {
            var low = low0
            var high = high0
            while (true) {
                if (limited()) return end(within())
                val s = tryRate(low)
                if (s.verdict == CapacityStep.Verdict.CLIENT) return end(client(s))
                if (s.verdict == CapacityStep.Verdict.MET) break
                high = low
                low = CapacitySearch.round(low * (1 - plan.spread))
                if (low < plan.limits.min) return end("missed at every rate tried, down to $high req/s")
            }
            met += low
            while (true) {
                if (limited()) return end(within())
                val s = tryRate(high)
                if (s.verdict == CapacityStep.Verdict.CLIENT) return end(client(s))
                if (s.verdict == CapacityStep.Verdict.MISSED) break
                low = high
                met += low
                high = CapacitySearch.round(minOf(high * (1 + plan.spread), plan.limits.max))
                if (low >= plan.limits.max) return end("met at the highest rate the search may try")
            }
            return low to high
        }

        /** Halves [low] (met) .. [high] (missed) to the precision; adds the estimate, or null with the label. */
        private suspend fun SequenceScope<Double>.bisect(low0: Double, high0: Double): Unit? {
            var low = low0
            var high = high0
            while ((high - low) / low > plan.limits.precision) {
                val mid = CapacitySearch.round(sqrt(low * high))
                if (mid <= low || mid >= high) break
                if (limited()) return end(within())
                val s = tryRate(mid)
                when (s.verdict) {
                    CapacityStep.Verdict.CLIENT -> return end(client(s))

                    CapacityStep.Verdict.MISSED -> high = mid

                    CapacityStep.Verdict.MET -> {
                        low = mid
                        met += mid
                    }
                }
            }
            estimates += sqrt(low * high)
            repeatMet += low
            return Unit
        }

        private suspend fun SequenceScope<Double>.confirm() {
            val spread = logSpread(estimates)
            val sorted = repeatMet.sorted()
            val n = sorted.size
            var rate = CapacitySearch.round(if (n % 2 == 1) sorted[n / 2] else sqrt(sorted[n / 2 - 1] * sorted[n / 2]))
            var retreats = 0
            while (true) {
                var missed: CapacityStep? = null
                for (i in 1..plan.confirmations) {
                    if (limited()) {
                        end<Unit>("the step limit (${plan.maxSteps}) came within the confirmation")
                        return
                    }
                    val s = tryRate(rate)
                    if (s.verdict == CapacityStep.Verdict.CLIENT) {
                        end<Unit>(client(s))
                        return
                    }
                    if (s.verdict == CapacityStep.Verdict.MISSED) {
                        missed = s
                        break
                    }
                }
                if (missed == null) {
                    capacity = rate
                    stable = spread <= plan.unstable
                    val steps = if (plan.confirmations == 1) "1 step" else "${plan.confirmations} steps in a row"
                    val rates = if (retreats == 1) "rate" else "rates"
                    val held = "holds: met the objective in $steps at " +
                        "${CapacitySearch.rateText(rate)} req/s, after ${estimates.size} searches that spread by " +
                        percent(spread) + if (retreats > 0) " ($retreats higher $rates tipped when repeated)" else ""
                    label = if (stable) {
                        held
                    } else {
                        "unstable: the ${estimates.size} searches spread by ${percent(spread)}, more than " +
                            "${percent(plan.unstable)}; $held"
                    }
                    return
                }
                retreats++
                if (retreats > plan.retreats) {
                    end<Unit>(
                        "unstable: ${CapacitySearch.rateText(rate)} req/s and $retreats rates above it met the " +
                            "objective in a search, then missed it when repeated (${missed.why})",
                    )
                    return
                }
                rate = CapacitySearch.round(rate * (1 - plan.limits.precision))
            }
        }

        private fun within() = "the step limit (${plan.maxSteps}) came within repeat ${estimates.size + 1}"

        private fun <T> end(why: String): T? {
            label = why
            stable = false
            return null
        }

        private fun client(s: CapacityStep) =
            "at ${CapacitySearch.rateText(s.rate)} req/s: ${s.why}; the figure is the load generator's, not the " +
                "server's"
    }

    /** Runs every side's search, round after round; the sides in their order of [sides]. */
    fun run(): List<Side> {
        val searches = (0 until sides).map { SideSearch(it, plan) }
        val waiting = HashSet<SideSearch>()
        var order: List<SideSearch> = emptyList()
        var round = 0
        while (true) {
            val active = searches.filter { it !in waiting && it.rates.hasNext() }
            if (active.isEmpty()) {
                if (waiting.isEmpty()) break
                waiting.clear() // every side still searching has ended its repeat: the next one starts together
                continue
            }
            // An odd round runs the even one's order reversed; a side back from waiting joins at its end.
            order = if (round % 2 == 1) {
                order.reversed().filter { it in active }.let { it + (active - it.toSet()).shuffled(random) }
            } else {
                active.shuffled(random)
            }
            for (s in order) {
                if (stopped()) return interrupted(searches)
                val rate = s.rates.next()
                if (rate.isNaN()) {
                    waiting += s
                    continue
                }
                val result = step(s.index, rate)
                s.steps += result
                s.last = result
            }
            round++
        }
        return searches.map(::result)
    }

    private fun result(it: SideSearch) =
        Side(it.index, it.capacity, it.estimates.toList(), it.steps.toList(), it.label, it.stable)

    /** Every search as far as it got: its repeats still count in [ratio]; one not ended has no capacity. */
    private fun interrupted(searches: List<SideSearch>): List<Side> = searches.map { s ->
        if (!s.finished) {
            s.label = "interrupted after ${s.steps.size} steps, ${s.estimates.size} searches"
            s.stable = false
        }
        result(s)
    }

    companion object {
        /**
         * The steps a side's search takes where each step's verdict follows the rate (no retreat, no widening past
         * one spread), from a ladder of [ladderSteps]: the estimate the run prints before it starts. Bisecting a
         * bracket of width w (a ratio) to the precision takes log2(ln w ÷ ln(1 + precision)) steps.
         */
        fun expectedSteps(plan: Plan, ladderSteps: Int): Int {
            val precision = ln(1 + plan.limits.precision)
            fun halvings(width: Double) = kotlin.math.ceil(kotlin.math.log2(ln(width) / precision)).toInt()
            val first = halvings(plan.limits.factor)
            val repeat = 2 + halvings((1 + plan.spread) / (1 - plan.spread))
            return ladderSteps + first + (plan.repeats - 1) * repeat + plan.confirmations
        }

        /** Where a side's repeat ends: it waits for the others. */
        private const val BARRIER = Double.NaN

        /**
         * [a] ÷ [b] of their repeats' estimates (the i-th of each from the same minutes): the geometric mean of the
         * per-repeat ratios with Student's t 95 % interval over the repeats; null unless both have 2 or more.
         */
        fun ratio(a: Side, b: Side): WindowStatistics.Ratio? {
            val n = minOf(a.estimates.size, b.estimates.size)
            if (n < 2) return null
            val logs = (0 until n).map { ln(a.estimates[it]) - ln(b.estimates[it]) }
            val mean = logs.average()
            val sd = sqrt(logs.sumOf { (it - mean) * (it - mean) } / (n - 1))
            val se = sd / sqrt(n.toDouble())
            val t = WindowStatistics.quantile((n - 1).toDouble())
            return WindowStatistics.Ratio(exp(mean), exp(mean - t * se), exp(mean + t * se), n, 1, se, n - 1.0, 0.0)
        }

        private fun geometricMean(xs: List<Double>) = exp(xs.sumOf { ln(it) } / xs.size)

        /** The sd of the logs of [xs]: their spread as a share. */
        fun logSpread(xs: List<Double>): Double {
            if (xs.size < 2) return 0.0
            val logs = xs.map { ln(it) }
            val mean = logs.average()
            return sqrt(logs.sumOf { (it - mean) * (it - mean) } / (xs.size - 1))
        }

        private fun percent(x: Double) = String.format(java.util.Locale.ROOT, "%.1f %%", 100 * abs(x))
    }
}
