package serverbench.metrics

import org.openjdk.jmh.results.AggregationPolicy
import org.openjdk.jmh.results.Aggregator
import org.openjdk.jmh.results.Result
import org.openjdk.jmh.results.ResultRole
import org.openjdk.jmh.util.ListStatistics

/**
 * A ratio of two sums, such as client CPU time per request or per second of wall time, aggregated over iterations and
 * forks as (sum of numerators) / (sum of denominators) instead of JMH's average of per-iteration ratios, which weighs
 * an iteration with few requests like one with many (and JMH pads an iteration that reported nothing with a 0).
 * The statistics, and so the ± error, are the per-iteration ratios.
 */
class RatioResult private constructor(
    label: String,
    unit: String,
    private val numerator: Double,
    private val denominator: Double,
    private val scale: Double,
    private val perIteration: DoubleArray,
) : Result<RatioResult>(ResultRole.SECONDARY, label, ListStatistics(perIteration), unit, AggregationPolicy.AVG) {

    constructor(label: String, unit: String, numerator: Double, denominator: Double, scale: Double = 1.0) : this(
        label,
        unit,
        numerator,
        denominator,
        scale,
        if (denominator > 0) doubleArrayOf(numerator / denominator * scale) else DoubleArray(0),
    )

    override fun getScore(): Double = if (denominator > 0) numerator / denominator * scale else Double.NaN

    override fun getScoreError(): Double = statistics.getMeanErrorAt(0.999) // NaN below 3 iterations

    override fun getScoreConfidence(): DoubleArray = scoreError.let { e ->
        if (e.isNaN()) {
            doubleArrayOf(score, score)
        } else {
            doubleArrayOf(score - e, score + e)
        }
    }

    override fun getThreadAggregator(): Aggregator<RatioResult> = SUM

    override fun getIterationAggregator(): Aggregator<RatioResult> = SUM

    companion object {
        private const val serialVersionUID = 1L

        private val SUM = Aggregator<RatioResult> { results ->
            val first = results.first()
            RatioResult(
                first.label,
                first.scoreUnit,
                results.sumOf {
                    it.numerator
                },
                results.sumOf { it.denominator },
                first.scale,
                results.flatMap { it.perIteration.asIterable() }.toDoubleArray(),
            )
        }
    }
}
