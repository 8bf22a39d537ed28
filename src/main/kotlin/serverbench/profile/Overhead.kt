package serverbench.profile

import org.apache.commons.math3.distribution.TDistribution
import org.openjdk.jmh.results.AggregationPolicy
import org.openjdk.jmh.results.Aggregator
import org.openjdk.jmh.results.Result
import org.openjdk.jmh.results.ResultRole
import org.openjdk.jmh.util.ListStatistics
import kotlin.math.sqrt

/** Profiling's cost from measurement-iteration scores in ABBA order (see [FlameProfiler] for why ABBA). */
class Overhead(val blockPercents: DoubleArray, val halfWidth: Double, val profiled: Double, val plain: Double) {
    val percent: Double get() = blockPercents.average()
    val blocks: Int get() = blockPercents.size

    fun describe(): String = "%.1f %% %s(mean of %d ABBA blocks; profiled iterations %.0f, plain %.0f ops/s)".format(
        percent,
        if (halfWidth.isNaN()) "" else "± %.1f %% (95 %% CI) ".format(halfWidth),
        blocks,
        profiled,
        plain,
    )

    companion object {
        /** ABBA: the 1st and 4th measurement iteration of every four are profiled. */
        fun profiledIteration(index: Int) = index % 4 == 0 || index % 4 == 3

        fun of(scores: List<Double>): Overhead? {
            val blocks = scores.chunked(4).filter { it.size == 4 }
                .map { (p1, u1, u2, p2) -> 100.0 * (1 - (p1 + p2) / (u1 + u2)) }
            if (blocks.isEmpty()) return null
            // JMH's getMeanErrorAt would give the same interval but none below 3 blocks; 2 blocks still get one here.
            val sd = ListStatistics(blocks.toDoubleArray()).standardDeviation
            val t = TDistribution((blocks.size - 1).coerceAtLeast(1).toDouble()).inverseCumulativeProbability(0.975)
            val half = if (blocks.size < 2) Double.NaN else t * sd / sqrt(blocks.size.toDouble())
            val used = scores.take(blocks.size * 4).withIndex()
            return Overhead(
                blocks.toDoubleArray(),
                half,
                used.filter { profiledIteration(it.index) }.map { it.value }.average(),
                used.filterNot { profiledIteration(it.index) }.map { it.value }.average(),
            )
        }
    }
}

/**
 * `flame.overhead` in %: the per-block estimates of one or more forks, pooled. Reported once, at a fork's last
 * iteration; unlike a ScalarResult it has no zero result, so JMH does not pad the other iterations with 0 % (which
 * would divide the figure by the iteration count). JMH's ± is its usual 99.9 % interval over the blocks.
 */
class OverheadResult(private val blocks: DoubleArray) :
    Result<OverheadResult>(ResultRole.SECONDARY, "flame.overhead", ListStatistics(blocks), "%", AggregationPolicy.AVG) {

    override fun getThreadAggregator(): Aggregator<OverheadResult> = POOL

    override fun getIterationAggregator(): Aggregator<OverheadResult> = POOL

    companion object {
        private const val serialVersionUID = 1L
        private val POOL = Aggregator<OverheadResult> { results ->
            OverheadResult(results.flatMap { it.blocks.asIterable() }.toDoubleArray())
        }
    }
}
