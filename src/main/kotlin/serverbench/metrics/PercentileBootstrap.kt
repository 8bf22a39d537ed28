package serverbench.metrics

import org.HdrHistogram.Histogram
import java.util.SplittableRandom
import kotlin.math.ceil
import kotlin.math.exp
import kotlin.math.max
import kotlin.math.min

/**
 * Confidence intervals for percentiles of the merged histogram of several measured iterations: a bootstrap over
 * iterations. A resample draws as many iterations as were measured, with replacement, merges their histograms and takes
 * the percentile; the interval is the 0.05 % and 99.95 % quantiles of that statistic over all resamples (99.9 %, the
 * level of JMH's other errors). It is an interval of the figure reported, the percentile of all requests, which the
 * spread of per-iteration percentiles is not: one iteration with a long tail sets the merged p99.9 and max.
 *
 * Iterations, not requests, are resampled: requests of one iteration share its GC pauses and JIT state, so they are
 * not independent. Cheap by construction: every iteration's counts are kept cumulated over the union of recorded
 * values, so a resample is a multiplicity per iteration and each percentile a binary search over weighted sums, never a
 * histogram merge. Up to [EXACT_UP_TO] iterations every distinct resample is enumerated with its probability (exact);
 * above, [RESAMPLES] random ones from a fixed seed, so a result file is reproducible.
 */
internal class PercentileBootstrap(iterations: List<Histogram>) {
    private val n = iterations.size

    /** Union of the values the iterations recorded (each bucket's highest equivalent value, as HdrHistogram reads). */
    private val values: LongArray =
        iterations.flatMapTo(sortedSetOf()) { h -> h.recordedValues().map { it.valueIteratedTo } }.toLongArray()

    /**
     * `[k * n + i]`: requests of iteration i at or below values[k], the iterations of one value side by side for the
     * search's inner loop. One flat array: JMH's bytecode generator, which scans every class of the jar, cannot
     * resolve a field of type `long[][]`.
     */
    private val cumulative = LongArray(n * values.size).also { c ->
        for ((i, h) in iterations.withIndex()) {
            for (v in h.recordedValues()) c[values.binarySearch(v.valueIteratedTo) * n + i] += v.countAtValueIteratedTo
            for (k in 1 until values.size) c[k * n + i] += c[(k - 1) * n + i]
        }
    }

    private fun cumulative(i: Int, k: Int) = cumulative[k * n + i]

    /**
     * Per percentile (100 = max), its 99.9 % interval `[low, high]` in the histograms' unit, or null below
     * [MIN_ITERATIONS] iterations, where resampling says nothing (as JMH gives no interval below 3 values).
     */
    fun intervals(percentiles: DoubleArray): List<DoubleArray>? {
        if (n < MIN_ITERATIONS || values.isEmpty()) return null
        if (n <= EXACT_UP_TO) {
            val samples = ArrayList<DoubleArray>() // the percentiles of one resample
            val weights = ArrayList<Double>()
            forEachResample { multiplicity, probability ->
                samples += statistics(multiplicity, percentiles)
                weights += probability
            }
            return List(percentiles.size) { p ->
                val order = samples.indices.sortedBy { samples[it][p] }
                val value = { s: Int -> samples[s][p] }
                doubleArrayOf(TAIL, 1 - TAIL).map { q -> quantile(order, value, weights, q) }.toDoubleArray()
            }
        }
        val random = SplittableRandom(SEED)
        val multiplicity = IntArray(n)
        val samples = Array(percentiles.size) { DoubleArray(RESAMPLES) } // [percentile][resample]
        for (b in 0 until RESAMPLES) {
            multiplicity.fill(0)
            repeat(n) { multiplicity[random.nextInt(n)]++ }
            statistics(multiplicity, percentiles).forEachIndexed { p, v -> samples[p][b] = v }
        }
        // The smallest value whose share of resamples at or below it reaches the quantile, as in the exact case.
        return samples.map { s ->
            s.sort()
            doubleArrayOf(TAIL, 1 - TAIL).map { q -> s[ceil(q * RESAMPLES - 1e-9).toInt() - 1] }.toDoubleArray()
        }
    }

    /** The percentiles of the histogram that merges iteration i [multiplicity]`[i]` times, by HdrHistogram's rule. */
    fun statistics(multiplicity: IntArray, percentiles: DoubleArray): DoubleArray {
        val total = (0 until n).sumOf { multiplicity[it] * cumulative(it, values.size - 1) }
        return DoubleArray(percentiles.size) { p ->
            // HdrHistogram's getValueAtPercentile: the first value whose cumulative count reaches ceil(p × total).
            val requested = min(max(Math.nextDown(percentiles[p]), 0.0), 100.0)
            val rank = max(1L, ceil(requested / 100.0 * total).toLong())
            var lo = 0
            var hi = values.size - 1
            while (lo < hi) {
                val mid = (lo + hi) ushr 1
                var below = 0L
                for (i in 0 until n) if (multiplicity[i] != 0) below += multiplicity[i] * cumulative(i, mid)
                if (below >= rank) hi = mid else lo = mid + 1
            }
            values[lo].toDouble()
        }
    }

    /** Every multiset of n iterations drawn from n, with its multinomial probability n! / (m1! ... mn!) / n^n. */
    private fun forEachResample(action: (IntArray, Double) -> Unit) {
        val logFactorial = DoubleArray(n + 1).also { for (k in 2..n) it[k] = it[k - 1] + kotlin.math.ln(k.toDouble()) }
        val m = IntArray(n)
        fun place(i: Int, left: Int, logWeight: Double) {
            if (i == n - 1) {
                m[i] = left
                action(m, exp(logFactorial[n] - logWeight - logFactorial[left] - n * kotlin.math.ln(n.toDouble())))
                return
            }
            for (k in 0..left) {
                m[i] = k
                place(i + 1, left - k, logWeight + logFactorial[k])
            }
        }
        place(0, n, 0.0)
    }

    /** The smallest value whose cumulative weight, in [order], reaches [q]. */
    private fun quantile(order: List<Int>, value: (Int) -> Double, weights: List<Double>, q: Double): Double {
        var cumulative = 0.0
        for (s in order) {
            cumulative += weights[s]
            if (cumulative >= q - 1e-12) return value(s)
        }
        return value(order.last())
    }

    companion object {
        const val MIN_ITERATIONS = 3

        /** C(2n-1, n) distinct resamples: 6435 at 8 iterations. */
        const val EXACT_UP_TO = 8
        const val RESAMPLES = 20_000
        private const val SEED = 0x5eed_1a7e_2c1L

        /** Each side of a 99.9 % interval. */
        private const val TAIL = 0.0005
    }
}
