package serverbench.metrics

import org.HdrHistogram.Histogram
import org.openjdk.jmh.results.AggregationPolicy
import org.openjdk.jmh.results.Aggregator
import org.openjdk.jmh.results.Result
import org.openjdk.jmh.results.ResultRole
import org.openjdk.jmh.util.ListStatistics
import kotlin.math.max
import kotlin.math.min

/**
 * Latency of every successful request of an iteration, as an HdrHistogram (µs), carried inside a JMH result.
 *
 * Why a custom result: JMH aggregates secondary results across iterations and forks by averaging or summing scores,
 * and the average of per-iteration p99s is not the p99 of the run. This result carries the histogram itself; its
 * aggregator *merges* histograms, so `latency.p99` of a benchmark is the p99 of all measured requests of all
 * measurement iterations of all forks. The percentiles are derivative results, computed from the merged histogram,
 * with the range of their per-iteration values as the interval ([PercentileRange] says what that range claims).
 *
 * The result's own score is the mean latency (label `latency.mean`); its statistics are the histogram, so JMH's JSON
 * `scorePercentiles` for `latency.mean` hold the full latency distribution.
 */
class LatencyResult private constructor(
    private val histogram: HistogramStatistics,
    /** The histogram of each measured iteration merged into this result (itself, for one iteration). */
    private val iterations: List<HistogramStatistics>,
    /** `latency`, or `latency.uncorrected` for the open loop's latency from the actual send. */
    private val prefix: String,
) : Result<LatencyResult>(ResultRole.SECONDARY, "$prefix.mean", histogram, UNIT, AggregationPolicy.AVG) {

    constructor(histogramMicros: Histogram, prefix: String = PREFIX) :
        this(HistogramStatistics.of(histogramMicros), emptyList(), prefix)

    private fun perIterationHistograms() = iterations.ifEmpty { listOf(histogram) }

    val count: Long get() = histogram.n

    override fun getScore(): Double = histogram.mean

    override fun getScoreError(): Double = spread(0)

    override fun getScoreConfidence(): DoubleArray = interval(score, scoreError)

    override fun getThreadAggregator(): Aggregator<LatencyResult> = MERGE

    override fun getIterationAggregator(): Aggregator<LatencyResult> = MERGE

    override fun getDerivativeResults(): Collection<Result<*>> = SUMMARY.indices.drop(1).map { i ->
        PercentileResult(prefix + SUMMARY_SUFFIXES[i], histogram.summaryValue(i), perIteration(i), SUMMARY[i] == 100.0)
    }

    private fun perIteration(i: Int) = ListStatistics().also { s ->
        perIterationHistograms().forEach { s.addValue(it.summaryValue(i)) }
    }

    private fun spread(i: Int): Double = perIteration(i).getMeanErrorAt(0.999) // NaN below 3 iterations

    override fun extendedInfo(): String = distributionExtendedInfo()

    /**
     * A percentile of the merged histogram, with the per-iteration values as its statistics (JMH's rawData) and their
     * range as its interval, from [PercentileRange.MIN_ITERATIONS] iterations on; the max ([isMax]) has none. The
     * range is asymmetric around the figure (a long tail in one iteration stretches it upwards only); JMH prints one
     * ±, so the error is its larger side, and the JSON's `scoreConfidence` holds both ends.
     */
    class PercentileResult internal constructor(
        label: String,
        private val value: Double,
        perIteration: ListStatistics,
        private val isMax: Boolean,
    ) : Result<PercentileResult>(ResultRole.SECONDARY_DERIVATIVE, label, perIteration, UNIT, AggregationPolicy.AVG) {
        override fun getScore(): Double = value

        private fun range(): DoubleArray? = if (isMax || statistics.n < PercentileRange.MIN_ITERATIONS) {
            null
        } else {
            // The merged percentile lies within the per-iteration range; min/max keep it so on HdrHistogram's buckets.
            doubleArrayOf(min(statistics.min, value), max(statistics.max, value))
        }

        override fun getScoreConfidence(): DoubleArray = range() ?: doubleArrayOf(value, value)

        override fun getScoreError(): Double = range()?.let { max(value - it[0], it[1] - value) } ?: Double.NaN

        /** Not JMH's "±(99.9%)": this interval has the coverage of its iteration count. */
        override fun toString(): String {
            val range = range() ?: return "%.3f %s".format(value, UNIT)
            val n = statistics.n.toInt()
            return "%.3f %s, range of %d iterations [%.3f, %.3f], holds their median with %.1f %%"
                .format(value, UNIT, n, range[0], range[1], 100 * PercentileRange.coverage(n))
        }

        override fun extendedInfo(): String {
            // The range names the per-iteration extremes already; without one, they are worth a look.
            val perIteration = if (range() != null) {
                ""
            } else {
                "; per iteration: ${statistics.n} values, min %.3f, max %.3f".format(statistics.min, statistics.max)
            }
            return "  $this (of all measured requests$perIteration)\n"
        }

        // Derivatives are recomputed from the merged histogram, never aggregated; JMH still asks for aggregators.
        override fun getThreadAggregator(): Aggregator<PercentileResult> = Aggregator { it.first() }
        override fun getIterationAggregator(): Aggregator<PercentileResult> = Aggregator { it.first() }
    }

    companion object {
        private const val serialVersionUID = 1L
        const val PREFIX = "latency"
        const val UNCORRECTED_PREFIX = "latency.uncorrected"
        const val LABEL = "$PREFIX.mean"
        const val UNIT = "ms"

        /** Order of a summary row; index 0 is the mean (this result's score), the rest are derivative results. */
        private val SUMMARY = doubleArrayOf(Double.NaN, 50.0, 90.0, 99.0, 99.9, 100.0)
        val SUMMARY_SUFFIXES = listOf(".mean", ".p50", ".p90", ".p99", ".p99.9", ".max")
        val SUMMARY_LABELS = SUMMARY_SUFFIXES.map { PREFIX + it }

        private val MERGE = Aggregator<LatencyResult> { results ->
            val merged = Histogram(results.first().histogram.decoded().highestTrackableValue, 3)
            results.forEach { merged.add(it.histogram.decoded()) }
            val iterations = results.flatMap { it.perIterationHistograms() }
            LatencyResult(HistogramStatistics.of(merged), iterations, results.first().prefix)
        }

        private fun summaryValue(h: Histogram, i: Int): Double = when {
            h.totalCount == 0L -> Double.NaN
            i == 0 -> h.mean / 1000.0
            SUMMARY[i] == 100.0 -> h.maxValue / 1000.0
            else -> h.getValueAtPercentile(SUMMARY[i]) / 1000.0
        }

        private fun interval(score: Double, error: Double) = if (error.isNaN()) {
            doubleArrayOf(score, score)
        } else {
            doubleArrayOf(score - error, score + error)
        }

        internal fun HistogramStatistics.summaryValue(i: Int) = summaryValue(decoded(), i)
    }
}
