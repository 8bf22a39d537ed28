package serverbench.report

import serverbench.metrics.MetricCatalogue
import serverbench.metrics.MetricSpec
import serverbench.metrics.PercentileRange

/**
 * Whether two runs' figures differ beyond their noise, at the 99.9 % level: where the two runs' 99.9 % intervals do
 * not overlap (JMH's own error bars: a difference inside them is noise this run cannot tell from a change), and for a
 * latency percentile, whose interval is the range of its per-iteration values ([PercentileRange]), where the ranges
 * do not overlap and would by chance at most [LEVEL] of the time. No mark is a statement too: the runs could not tell
 * the two apart. The report's baseline marks and the findings' "beyond noise" both read it.
 */
object Significance {
    enum class Change { NONE, BETTER, WORSE, DIFFERENT }

    /** The chance of a mark without a difference that a mark allows: the 99.9 % level of JMH's intervals. */
    const val LEVEL = 0.001

    /**
     * The rule: significant iff both intervals are known and do not overlap, and for a latency percentile the ranges'
     * being apart has a chance of at most [LEVEL] without a difference ([apartP]). Whether higher is better depends on
     * the metric (throughput up is better, latency up is worse).
     */
    fun of(metric: String, head: Metric, base: Metric): Change {
        if (head.error.isNaN() || base.error.isNaN()) {
            // No interval (one iteration, or a count like errors): only an exact count difference is certain.
            val counted = metric == MetricCatalogue.ERRORS.name && head.score != base.score
            return if (counted) direction(metric, head.score - base.score) else Change.NONE
        }
        if (overlap(head, base)) return Change.NONE
        if (PercentileRange.isPercentile(metric) && !(apartP(head, base) <= LEVEL)) return Change.NONE
        return direction(metric, head.score - base.score)
    }

    fun overlap(a: Metric, b: Metric): Boolean = a.low <= b.high && b.low <= a.high

    /** For two percentiles' ranges, the chance they are apart when nothing differs; NaN when a count is unknown. */
    fun apartP(a: Metric, b: Metric): Double =
        if (a.samples > 0 && b.samples > 0) PercentileRange.apartP(a.samples, b.samples) else Double.NaN

    private fun direction(metric: String, delta: Double): Change = when (MetricCatalogue.of(metric)?.better) {
        MetricSpec.Better.HIGHER -> if (delta > 0) Change.BETTER else Change.WORSE
        MetricSpec.Better.LOWER -> if (delta < 0) Change.BETTER else Change.WORSE
        else -> Change.DIFFERENT
    }
}
