package serverbench.compare

import org.apache.commons.math3.distribution.NormalDistribution
import kotlin.math.abs
import kotlin.math.exp
import kotlin.math.floor
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * Two configurations compared over their fork means: whole forks of one command differ far more than the iterations
 * inside a fork (docs/compare.md), so the fork is the unit, as Kalibera & Jones advise.
 * - Its p-value is Mann-Whitney U's, exact (with ties), as benchstat and Google Benchmark's compare.py use: one odd
 *   fork cannot make a difference significant on its own.
 * - The effect, head ÷ base, is the Hodges-Lehmann estimate with the interval that inverts that same test: no
 *   assumption about how fork means are distributed, exact coverage with 5 forks a side (where a percentile
 *   bootstrap of 5 values falls short), and a mark never rests on the test and the interval disagreeing.
 */
object ForkStatistics {
    /** The interval's level, and the test's: a row is marked when p < 1 - LEVEL and the interval excludes 1. */
    const val LEVEL = 0.95

    /** Larger pooled samples than this take the normal approximation: the exact count grows as n³. */
    private const val EXACT_LIMIT = 60

    class Interval(val low: Double, val high: Double) {
        fun excludes(x: Double) = x < low || x > high
        override fun toString() = "[$low, $high]"
    }

    fun mean(x: DoubleArray): Double = x.average()

    /**
     * Hodges-Lehmann's estimate of head ÷ base: the median of the ratios of every head fork to every base fork.
     * NaN without forks on both sides or with a figure not above zero.
     */
    fun ratio(base: DoubleArray, head: DoubleArray): Double {
        val d = logRatios(base, head) ?: return Double.NaN
        val mid = d.size / 2
        return exp(if (d.size % 2 == 1) d[mid] else (d[mid - 1] + d[mid]) / 2)
    }

    /**
     * The [level] interval of head ÷ base that belongs to the Mann-Whitney test (Bauer 1972; R's
     * `wilcox.test(conf.int = TRUE)` on logs): the k+1-th smallest and k+1-th largest of the fork-to-fork ratios,
     * k the largest U with P(U ≤ k) ≤ (1 - level) / 2. It excludes 1 exactly when the test rejects at that level, so
     * the interval and the p-value never tell two stories, and one odd fork moves it by one ratio in many (Fieller's
     * interval of means, tried first, was widened past 1 by a single fork 14 % low; docs/compare.md).
     * Distribution-free; its coverage is at least [level] (96.8 % with 5 forks a side). Null when it has no finite
     * ends: a figure not above zero, or too few forks for the level (3 a side at 95 %).
     */
    fun ratioInterval(base: DoubleArray, head: DoubleArray, level: Double = LEVEL): Interval? {
        val d = logRatios(base, head) ?: return null
        val k = criticalU(base.size, head.size, (1 - level) / 2)
        if (k < 0) return null
        return Interval(exp(d[k]), exp(d[d.size - 1 - k]))
    }

    /** log(head_j ÷ base_i) for every pair of forks, sorted; null when a side is empty or a figure not above 0. */
    private fun logRatios(base: DoubleArray, head: DoubleArray): DoubleArray? {
        fun usable(side: DoubleArray) = side.isNotEmpty() && side.none { it <= 0 }
        if (!usable(base) || !usable(head)) return null
        return DoubleArray(base.size * head.size) { ln(head[it % head.size] / base[it / head.size]) }.apply { sort() }
    }

    /**
     * The largest u with P(U ≤ u) ≤ [alpha] for samples of [n] and [m] without ties; -1 when even U = 0 is likelier.
     */
    private fun criticalU(n: Int, m: Int, alpha: Double): Int {
        if (n + m > EXACT_LIMIT) {
            val sd = sqrt(n * m * (n + m + 1) / 12.0)
            val z = NormalDistribution(null, 0.0, 1.0).inverseCumulativeProbability(1 - alpha)
            return floor(n * m / 2.0 - z * sd - 0.5).toInt()
        }
        val counts = uCounts(n, m)
        val limit = alpha * counts.sum()
        var k = -1
        var below = 0.0
        while (below + counts[k + 1] <= limit) below += counts[++k]
        return k
    }

    /**
     * How many of the C(n+m, n) orders of two samples give each U = 0..nm: c(i, j) = c(i-1, j) shifted j + c(i, j-1).
     */
    private fun uCounts(n: Int, m: Int): DoubleArray {
        var previous = Array(m + 1) { doubleArrayOf(1.0) }
        for (i in 1..n) {
            val current = ArrayList<DoubleArray>(m + 1)
            current += doubleArrayOf(1.0)
            for (j in 1..m) {
                val out = DoubleArray(i * j + 1)
                previous[j].forEachIndexed { u, c -> out[u + j] += c }
                current[j - 1].forEachIndexed { u, c -> out[u] += c }
                current += out
            }
            previous = current.toTypedArray()
        }
        return previous[m]
    }

    /**
     * Two-sided p-value of the Mann-Whitney U test, exact: the number of ways to choose base's ranks among all forks'
     * (mid-ranks for ties) whose rank sum lies at least as far from its mean as the observed one, over all ways.
     */
    fun mannWhitney(base: DoubleArray, head: DoubleArray): Double {
        val n = base.size
        val m = head.size
        if (n == 0 || m == 0) return Double.NaN
        val all = (base.map { it to true } + head.map { it to false }).sortedBy { it.first }
        // Doubled mid-ranks are whole numbers, so rank sums can index a table.
        val ranks = IntArray(all.size)
        var i = 0
        while (i < all.size) {
            var j = i
            while (j + 1 < all.size && all[j + 1].first == all[i].first) j++
            for (k in i..j) ranks[k] = i + j + 2
            i = j + 1
        }
        val observed = all.indices.filter { all[it].second }.sumOf { ranks[it] }
        val expected = n * (n + m + 1) // doubled
        if (n + m > EXACT_LIMIT) return normalApproximation(ranks, observed, n, m)
        val maxSum = ranks.sum()
        // ways[k][s]: subsets of k forks whose doubled ranks sum to s (doubles: counts reach 10^17).
        val ways = Array(n + 1) { DoubleArray(maxSum + 1) }
        ways[0][0] = 1.0
        for (r in ranks) {
            for (k in minOf(n, ranks.size) downTo 1) {
                val row = ways[k]
                val below = ways[k - 1]
                for (s in maxSum downTo r) row[s] += below[s - r]
            }
        }
        val distance = abs(observed - expected)
        var extreme = 0.0
        var total = 0.0
        for (s in 0..maxSum) {
            total += ways[n][s]
            if (abs(s - expected) >= distance) extreme += ways[n][s]
        }
        return (extreme / total).coerceAtMost(1.0)
    }

    private fun normalApproximation(ranks: IntArray, observed: Int, n: Int, m: Int): Double {
        val count = (n + m).toDouble()
        val mean = n * (count + 1) / 2
        val sumSquares = ranks.sumOf { (it / 2.0) * (it / 2.0) }
        // Variance of a rank sum without replacement, ties included.
        val variance = n * m / (count * (count - 1)) * (sumSquares - count * (count + 1) * (count + 1) / 4)
        if (variance <= 0) return 1.0
        val z = (abs(observed / 2.0 - mean) - 0.5).coerceAtLeast(0.0) / sqrt(variance)
        return 2 * (1 - NormalDistribution(null, 0.0, 1.0).cumulativeProbability(z))
    }

    /**
     * How far head ÷ base had to lie from 1 for these forks, spread as they fell, to be marked: shifting every head
     * fork by a factor c moves the estimate and the interval by c, so a shift from "no difference" is marked once it
     * carries the interval's far end past 1, i.e. beyond the estimate's distance to that end. The larger of the two
     * directions, as a fraction; NaN where the interval has no finite ends (too few forks for the test to mark
     * anything). It comes from the same test that marks rows, not from a model of the forks' distribution.
     */
    fun minimumDetectable(base: DoubleArray, head: DoubleArray): Double {
        val interval = ratioInterval(base, head) ?: return Double.NaN
        val r = ratio(base, head)
        return maxOf(r / interval.low - 1, 1 - r / interval.high)
    }

    /**
     * The chance that a row of [n] and [m] forks is marked when the sides do not differ (forks without ties): the
     * exact test's real level. Its p takes few values with few forks, so this is the largest of them below 1 -
     * [LEVEL] (2 / C(2n, n) and up); 0 when no outcome can be marked at all.
     */
    fun markingLevel(n: Int, m: Int): Double {
        if (n < 1 || m < 1) return 0.0
        val alpha = 1 - LEVEL
        var k = criticalU(n, m, alpha / 2)
        // The interval takes P(U <= k) up to alpha / 2; a mark also needs p strictly below alpha.
        while (k >= 0 && 2 * probabilityAtMost(k, n, m) >= alpha) k--
        return if (k < 0) 0.0 else 2 * probabilityAtMost(k, n, m)
    }

    /** The fewest forks a side with which the test can mark a row at all. */
    val minimumForks: Int = generateSequence(1) { it + 1 }.first { markingLevel(it, it) > 0 }

    /**
     * How the interval's half-width goes with the forks: its ends are the k+1-th ratios from either end of the nm
     * fork-to-fork ratios, so the estimate lies (nm/2 - k - 1/2) of them from an end; for a given spread of forks the
     * ratios' density near the estimate grows as nm, so the half-width goes as that share of nm. Tracks the exact
     * test's steps, where 1/√forks does not; NaN where no interval exists.
     */
    fun widthShare(n: Int, m: Int): Double {
        val k = criticalU(n, m, (1 - LEVEL) / 2)
        if (k < 0) return Double.NaN
        return (n * m / 2.0 - k - 0.5) / (n * m)
    }

    /** P(U <= u) for samples of [n] and [m] without ties. */
    private fun probabilityAtMost(u: Int, n: Int, m: Int): Double {
        if (n + m > EXACT_LIMIT) {
            val sd = sqrt(n * m * (n + m + 1) / 12.0)
            return NormalDistribution(null, 0.0, 1.0).cumulativeProbability((u + 0.5 - n * m / 2.0) / sd)
        }
        val counts = uCounts(n, m)
        return counts.take(u + 1).sum() / counts.sum()
    }

    /** A difference this run can call: significant by the test, and the interval does not hold 1. */
    fun significant(p: Double, interval: Interval?): Boolean =
        p < 1 - LEVEL && interval != null && interval.excludes(1.0)
}
