package serverbench.live

import org.apache.commons.math3.distribution.TDistribution
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * Head ÷ base of one metric from interleaved windows ([Window]), with its 95 % interval.
 *
 * Why it is shaped so (docs/compare.md): the machine drifts over minutes, while one window's noise is white. Within a
 * process pair, the head and base windows of one round are neighbours in time, and the next round runs them in the
 * reverse order (base head · head base), so each block of two rounds cancels a drift that is linear over it; the
 * block's mean log difference is one observation. A process's own JIT luck does not cancel that way: it is the same in
 * every window of that process. So the pairs are the units that carry it: the estimate is the mean of the pairs'
 * means, and its variance the windows' part (pooled within pairs) plus whatever the pairs' means spread beyond what
 * the windows explain (a method-of-moments random effect), with one degree of freedom fewer than the pairs. With one
 * pair the interval is the windows' t interval, and a process's own luck is not in it.
 */
object WindowStatistics {
    /** The interval's coverage. */
    const val LEVEL = 0.95

    /** One metric's verdict material: head ÷ base, its interval, and what it rests on. */
    class Ratio(
        val ratio: Double,
        val low: Double,
        val high: Double,
        /** Complete blocks (two rounds) over all pairs. */
        val blocks: Int,
        val pairs: Int,
        /** Standard error of the log ratio, and its degrees of freedom. */
        val standardError: Double,
        val degreesOfFreedom: Double,
        /** The spread of the pairs' means beyond the windows' own noise, as a share (0 when the windows explain it). */
        val processSpread: Double,
        /** How much of the variance that spread is: above a half, the pairs, not the windows, set the interval. */
        val processShare: Double = 0.0,
    ) {
        /** Whether the interval excludes 1. */
        val marked: Boolean get() = low > 1.0 || high < 1.0

        /** Half the interval's width as a share of the estimate: the smallest change this run could mark. */
        val halfWidth: Double get() = maxOf(high / ratio - 1, 1 - low / ratio)
    }

    /**
     * The log differences head − base per pair and block, from [windows] of [metric]: pair index -> the blocks' mean
     * differences, in time order. A round missing a side, or a block missing a round, is left out.
     */
    fun blockDifferences(windows: List<Window>, metric: String): Map<Int, List<Double>> {
        val out = sortedMapOf<Int, MutableList<Double>>()
        for ((pair, ofPair) in windows.groupBy { it.pair }) {
            val byRound = ofPair.groupBy { it.round }
            val diffs = sortedMapOf<Int, Double>()
            for ((round, w) in byRound) {
                val base = w.firstOrNull { it.side == Side.BASE }?.value(metric)
                val head = w.firstOrNull { it.side == Side.HEAD }?.value(metric)
                if (positive(base) && positive(head)) diffs[round] = ln(head!!) - ln(base!!)
            }
            val blocks = diffs.keys.filter {
                it % 2 == 0 && it + 1 in diffs
            }.map { (diffs[it]!! + diffs[it + 1]!!) / 2 }
            if (blocks.isNotEmpty()) out[pair] = blocks.toMutableList()
        }
        return out
    }

    private fun positive(x: Double?) = x != null && x > 0

    /** Head ÷ base of [metric]; null until every pair has two blocks (too few for a spread). */
    fun ratio(windows: List<Window>, metric: String): Ratio? =
        ofBlocks(blockDifferences(windows, metric).values.toList())

    /** [ratio] from each pair's block differences (log scale). */
    fun ofBlocks(pairs: List<List<Double>>): Ratio? {
        if (pairs.isEmpty() || pairs.any { it.size < 2 }) return null
        val p = pairs.size
        val means = pairs.map { it.average() }
        val dfWithin = pairs.sumOf { it.size - 1 }
        val within = pairs.sumOf(::squaredDeviations) / dfWithin
        val meanInverseN = pairs.sumOf { 1.0 / it.size } / p
        // The windows' part of the variance of the mean of the pairs' means.
        val windowsPart = within * meanInverseN / p
        var excess = 0.0
        if (p >= 2) {
            val grand = means.average()
            val between = means.sumOf { (it - grand) * (it - grand) } / (p - 1)
            excess = maxOf(0.0, between - within * meanInverseN)
        }
        val processPart = excess / p
        val variance = windowsPart + processPart
        // With two pairs or more, the pairs' means are the observations (p - 1 degrees of freedom), even where their
        // spread falls below what the windows explain: that is as often luck agreeing as no luck at all, and the
        // windows' degrees of freedom then let simulated A/As be marked too often (docs/compare.md, the statistics).
        val df = if (p >= 2) (p - 1).toDouble() else dfWithin.toDouble()
        val estimate = means.average()
        val se = sqrt(variance)
        val h = quantile(df) * se
        return Ratio(
            exp(estimate),
            exp(estimate - h),
            exp(estimate + h),
            pairs.sumOf { it.size },
            p,
            se,
            df,
            exp(sqrt(excess)) - 1,
            processPart / variance,
        )
    }

    /** Student's t quantile for [LEVEL] two-sided at [df] degrees of freedom (commons-math, which JMH brings). */
    fun quantile(df: Double): Double = TDistribution(null, maxOf(df, 1.0)).inverseCumulativeProbability(
        1 - (1 - LEVEL) / 2,
    )

    /**
     * The half-width to expect (as a share) from [blocksAPair] blocks in each of [pairs] pairs whose block differences
     * spread by [blockSpread] (log scale, sd): what a run of those settings can show, before it runs.
     */
    fun expectedHalfWidth(blockSpread: Double, blocksAPair: Int, pairs: Int): Double {
        val n = maxOf(2, blocksAPair)
        val df = if (pairs >= 2) pairs - 1 else n - 1
        return exp(quantile(df.toDouble()) * blockSpread / sqrt((n * pairs).toDouble())) - 1
    }

    /** Blocks a pair that bring the expected half-width within [precision], at [blockSpread]; at least [least]. */
    fun blocksFor(blockSpread: Double, precision: Double, pairs: Int, least: Int): Int {
        var n = maxOf(2, least)
        while (n < MAX_FORECAST_BLOCKS && expectedHalfWidth(blockSpread, n, pairs) > precision) n++
        return n
    }

    private const val MAX_FORECAST_BLOCKS = 100_000

    /** The spread (sd) of block differences over [pairs]' blocks, pooled within pairs; null with too few. */
    fun blockSpread(pairs: Collection<List<Double>>): Double? {
        val df = pairs.sumOf { maxOf(0, it.size - 1) }
        if (df < 1) return null
        return sqrt(pairs.sumOf(::squaredDeviations) / df)
    }

    /** The sum of squared deviations of [xs] from their mean (0 for fewer than two), the mean taken once. */
    private fun squaredDeviations(xs: List<Double>): Double {
        if (xs.size < 2) return 0.0
        val mean = xs.average()
        return xs.sumOf { (it - mean) * (it - mean) }
    }
}
