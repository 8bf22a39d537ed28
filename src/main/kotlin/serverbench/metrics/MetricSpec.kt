package serverbench.metrics

import org.openjdk.jmh.results.AggregationPolicy
import org.openjdk.jmh.results.Result
import org.openjdk.jmh.results.ScalarResult

/**
 * One metric of the result files as every reader needs it ([MetricCatalogue] holds them all): its JMH name and unit,
 * which way is better, whether it is a whole number, how JMH folds it over iterations and forks ([merge]), where the
 * report shows it ([column]) and whether compare and the trackers follow it ([headline]). The client threads of an
 * iteration are folded before: into one [serverbench.client.ClientReport] by its `merge`.
 */
class MetricSpec(
    val name: String,
    val unit: String,
    val merge: Merge,
    val better: Better = Better.NEITHER,
    /** Whole numbers: a peak of 19 threads is not "19.00". */
    val whole: Boolean = false,
    val column: Column? = null,
    val headline: Headline? = null,
) {
    /** Which way a change of the metric is an improvement; [NEITHER]: a change is only different. */
    enum class Better { HIGHER, LOWER, NEITHER }

    /** How JMH folds the per-iteration values of a fork, and the forks of a run. */
    enum class Merge {
        SUM,
        MAX,
        AVG,

        /** A [RatioResult]: numerators and denominators summed, then divided (no zeros of other iterations count). */
        POOLED,

        /** A [LatencyResult]'s percentile: recomputed from the merged histogram. */
        HISTOGRAM,

        /** JMH's primary result, the score: JMH's own. */
        PRIMARY,
    }

    /** A report column: its [header], and the rows whose table shows it. */
    class Column(val header: String, val shown: Shown)

    enum class Shown {
        ALWAYS,

        /** Where a row is open loop (`-p rate` above 0). */
        OPEN_LOOP,

        /** Where a row ran under a CPU budget (it has `server.throttled`). */
        UNDER_BUDGET,

        /** Where some row of the table has it. */
        MEASURED,

        /** Where some row of the table has it above 0 (figures every run reports, 0 included). */
        ABOVE_ZERO,
    }

    /**
     * A figure scripts/compare compares and the trackers chart across commits: its short [label], the Bencher measure
     * [slug] and the [unit] it is exported in (a time unit is converted to it).
     */
    class Headline(val label: String, val slug: String, val unit: String)

    /** This metric's value of one iteration, folded by its [merge]. */
    fun scalar(value: Double): Result<*> = ScalarResult(name, value, unit, policy())

    /** [numerator] ÷ [denominator] × [scale], pooled over iterations and forks. */
    fun ratio(numerator: Double, denominator: Double, scale: Double = 1.0): Result<*> {
        check(merge == Merge.POOLED) { "$name is not a pooled ratio" }
        return RatioResult(name, unit, numerator, denominator, scale)
    }

    private fun policy(): AggregationPolicy = when (merge) {
        Merge.SUM -> AggregationPolicy.SUM
        Merge.MAX -> AggregationPolicy.MAX
        Merge.AVG -> AggregationPolicy.AVG
        else -> error("$name is not a scalar: $merge")
    }

    /** JMH's primary result, the throughput. */
    val primary: Boolean get() = merge == Merge.PRIMARY

    override fun toString() = name
}
