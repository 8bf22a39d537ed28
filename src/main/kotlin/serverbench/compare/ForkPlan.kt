package serverbench.compare

import org.apache.commons.math3.distribution.NormalDistribution
import java.util.Locale
import kotlin.math.sqrt

/**
 * How long a comparison runs: [firstForks] a side first, then two more a side (one base-head-head-base block,
 * [ForkOrder]) at a time until every req/s row's expected detectable is within ± [precision], the next block would
 * not end within [budgetSeconds], or [MOST_FORKS] a side are done. The budget is read after every block from
 * [ForkStatistics.minimumForks] a side, so slow forks can end a run before [firstForks]; with fewer nothing could be
 * marked, and nothing stops.
 *
 * Sequential stopping keeps the test's level because the rule does not look at which fork is base and which head: it
 * reads the spread of all of a row's forks pooled ([pooledDetectable]). Where the sides do not differ, the
 * Mann-Whitney test's null distribution is that of the labels over a given set of values, which a rule reading only
 * the set cannot change; each row is then judged by the fixed-sample test at the count it stopped at. A budget stop
 * reads the elapsed time alone, not the forks' figures: the time of all forks so far, blind to sides as well, so a
 * stop below [firstForks] keeps the fixed-sample test's level at the count reached (2.86 % at 4 + 4). Reading the
 * observed interval's width instead, tried first, marked 6.2 % of simulated A/A runs against 5 % promised: it stops
 * when each side's forks happen to lie close together, where they are also likelier to lie entirely apart.
 * `ForkPlanTest` simulates A/A runs under this rule (normal forks, and forks with an odd low one) and checks that the
 * false-mark rate stays within [PROMISED_LEVEL], the rate the table states.
 */
class ForkPlan(val firstForks: Int, val precision: Double, val budgetSeconds: Double) {
    init {
        require(ForkOrder.allowed(firstForks)) { "forks must be even and ${ForkStatistics.minimumForks} or more" }
    }

    /** Why a run stopped adding forks. */
    enum class Stop(val said: String) {
        PRECISION("every req/s row's expected detectable, from its pooled forks' spread, was within the precision"),
        BUDGET("the next block of two more forks a side would have run past the time budget"),
        MOST("the most forks a comparison runs"),
        FIXED("no time budget: the forks asked for"),
    }

    /**
     * After the block that ends at [forks] a side (all forks so far, [elapsedSeconds] for them): null to add a block,
     * or why to stop. [detectable]: each req/s row's [pooledDetectable], read from [firstForks] a side on.
     */
    fun decide(forks: Int, detectable: List<Double>, elapsedSeconds: Double): Stop? {
        if (forks < ForkStatistics.minimumForks) return null
        if (forks >= firstForks) {
            if (detectable.isNotEmpty() && detectable.all { it <= precision }) return Stop.PRECISION
            if (budgetSeconds <= 0) return Stop.FIXED
            if (forks + 2 > MOST_FORKS) return Stop.MOST
        }
        if (budgetSeconds <= 0) return null
        val perFork = elapsedSeconds / (2 * forks)
        return if (elapsedSeconds + 4 * perFork > budgetSeconds) Stop.BUDGET else null
    }

    /**
     * The forks a side a run stops at by the budget (or [firstForks] without one) when every fork takes [seconds]:
     * the first block from [ForkStatistics.minimumForks] a side after which the next would end past the budget.
     */
    fun forksWithin(seconds: Double): Int {
        if (budgetSeconds <= 0) return firstForks
        var n = (ForkStatistics.minimumForks + 1) / 2 * 2
        while ((n < firstForks || n + 2 <= MOST_FORKS) && 2 * (n + 2) * seconds <= budgetSeconds) n += 2
        return n
    }

    /**
     * The line a run prints before and after its first look: how small a change of req/s these settings can show, at
     * a between-fork [spread] (a fraction) and [secondsPerFork], and what those figures rest on ([basis]).
     */
    fun forecast(spread: Double, secondsPerFork: Double, basis: String): String {
        val n = forksWithin(secondsPerFork)
        val stop = when {
            budgetSeconds <= 0 -> "$n forks a side"

            n < firstForks -> "stopping at $n a side, as the ${budgetMinutes()} min budget ends before the first " +
                "look at $firstForks"

            else -> "adding fork pairs from $firstForks a side until ± ${percent(precision)} or the " +
                "${budgetMinutes()} min budget"
        }
        return "these settings can show a change of about ± ${percent(expectedDetectable(spread, n))} in req/s " +
            "(95 %), in about ${minutes(2 * n * secondsPerFork)} min ($stop; ${percent(spread)} between-fork " +
            "spread and ${Math.round(secondsPerFork)} s a fork, $basis)"
    }

    /**
     * The line after a run's first block: its own [secondsPerFork] against the forecast's prior, and when the first
     * look and the budget's stop then come (from the first look on, the precision may stop it sooner).
     */
    fun pace(secondsPerFork: Double): String {
        val n = forksWithin(secondsPerFork)
        val at = { forks: Int -> "about ${minutes(2 * forks * secondsPerFork)} min" }
        val budget = "the ${budgetMinutes()} min budget"
        return "forks take about ${Math.round(secondsPerFork)} s here (the forecast assumed " +
            "${Math.round(MEASURED_SECONDS_PER_FORK)} s): " + when {
                budgetSeconds <= 0 -> "$n a side in ${at(n)}, no budget"

                n < firstForks ->
                    "the first look, at $firstForks a side, would come after " +
                        "${past(2 * firstForks * secondsPerFork)}, past $budget: stopping at $n a side, in ${at(n)}"

                n == firstForks -> "the first look at $n a side in ${at(n)}, and $budget allows no more"

                else -> "the first look at $firstForks a side in ${at(firstForks)}, then up to $n a side " +
                    "(${at(n)}) within $budget"
            }
    }

    private fun budgetMinutes() = Math.round(budgetSeconds / 60)

    /** A time past the budget that whole minutes would round down to it ("15 min, past the 15 min budget"): 15.2. */
    private fun past(seconds: Double): String = if (Math.round(seconds / 60) <= budgetMinutes()) {
        "about ${String.format(Locale.ROOT, "%.1f", seconds / 60)} min"
    } else {
        "about ${minutes(seconds)} min"
    }

    private fun minutes(seconds: Double) = Math.round(seconds / 60).coerceAtLeast(1)

    companion object {
        /** Forks a side a comparison never goes beyond: 2 × 20 forks of a minute each is already 40 min. */
        const val MOST_FORKS = 20

        /**
         * The false-mark rate the table promises for a row of an adaptive run: the test's nominal level. The exact
         * test's real level at a fixed count lies below it (4.11 % at 6 + 6, 4.99 % at 8 + 8).
         */
        const val PROMISED_LEVEL = 0.05

        /**
         * The between-fork spread (coefficient of variation of fork means) measured here for `CpuBenchmark.direct`
         * netty with 5 × 5 s a fork (docs/compare.md): the forecast's prior, before a run has forks of its own.
         */
        const val MEASURED_SPREAD = 0.02

        /** Seconds a fork of one row took in that measurement (10 forks in 10 min): the forecast's prior time. */
        const val MEASURED_SECONDS_PER_FORK = 60.0

        /**
         * The detectable ([ForkStatistics.minimumDetectable]) to expect at [n] forks a side whose means spread
         * normally by [spread]: the interval's ends are the fork-to-fork ratios a share
         * [ForkStatistics.widthShare] of them away from the median, and a head ÷ base ratio of two such forks
         * spreads by spread × √2, so the end lies that quantile of a normal away.
         */
        fun expectedDetectable(spread: Double, n: Int): Double {
            val share = ForkStatistics.widthShare(n, n)
            if (share.isNaN()) return Double.NaN
            return spread * sqrt(2.0) * NormalDistribution(null, 0.0, 1.0).inverseCumulativeProbability(0.5 + share)
        }

        /**
         * The detectable to expect at this row's fork count from the spread of all its forks pooled, base and head
         * alike ([expectedDetectable]): the stopping rule's figure, blind to which fork is which side. A real
         * difference widens it, so a run that has one goes on longer rather than stopping on it.
         */
        fun pooledDetectable(row: Comparison.Row): Double =
            expectedDetectable(cv(row.base + row.head), minOf(row.base.size, row.head.size))

        /** The spread of fork means a run measured: the median over rows of each side's coefficient of variation. */
        fun spread(rows: List<Comparison.Row>): Double? {
            val cvs = rows.flatMap { listOf(it.base, it.head) }.filter { it.size >= 2 }.map { cv(it) }.sorted()
            if (cvs.isEmpty()) return null
            return cvs[cvs.size / 2]
        }

        private fun cv(x: DoubleArray): Double {
            val mean = x.average()
            return sqrt(x.sumOf { (it - mean) * (it - mean) } / (x.size - 1)) / mean
        }

        fun percent(x: Double) = if (x.isNaN()) "–" else "%.1f %%".format(Locale.ROOT, x * 100)

        /** "15m", "900s", "1h", "0": seconds; null when not a duration. */
        fun seconds(text: String): Double? {
            val m = Regex("(\\d+(?:\\.\\d+)?)\\s*(s|m|min|h)?").matchEntire(text.trim()) ?: return null
            val x = m.groupValues[1].toDouble()
            return when (m.groupValues[2]) {
                "", "s" -> if (m.groupValues[2].isEmpty() && x != 0.0) null else x
                "m", "min" -> x * 60
                else -> x * 3600
            }
        }

        /** "2%", "2 %", "0.02": a fraction in (0, 1); null otherwise. */
        fun fraction(text: String): Double? {
            val t = text.trim()
            val x = if (t.endsWith("%")) t.dropLast(1).trim().toDoubleOrNull()?.div(100) else t.toDoubleOrNull()
            return x?.takeIf { it > 0 && it < 1 }
        }
    }
}
