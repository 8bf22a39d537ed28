package serverbench.metrics

import kotlin.math.pow

/**
 * The interval a latency percentile carries, and what it may claim: the range (lowest to highest) of that percentile's
 * per-iteration values, the measured iterations (of all forks) as the unit.
 *
 * Why iterations, not requests: requests of one iteration share its GC pauses and JIT state, so they are not
 * independent, and an interval from the merged histogram's order statistics would be far narrower than the figure's
 * real variation. Why the range: for n independent iterations alike in distribution, their lowest and highest value
 * hold the median per-iteration value (the percentile of a typical iteration) with probability 1 − 2 × 0.5^n, whatever
 * the distribution ([coverage]: 75 % at 3 iterations, 93.8 % at 5, 99.2 % at 8; a fixed 99.9 % would need 11). The
 * figure reported, the percentile of all requests merged, always lies within the range. Two rows' ranges that do not
 * overlap are a test of their own: all m values of one row below all n of the other, or above, happens by chance with
 * probability [apartP] = 2 / C(m+n, m) when both rows' iterations come from one distribution.
 *
 * The maximum gets no interval: the largest request of a run is the top of its own range by construction and grows
 * with the number of requests, so no range of these samples is an interval of it.
 */
object PercentileRange {
    /** Fewer iterations give no range (at 2, it would hold the median half the time). */
    const val MIN_ITERATIONS = 3

    /** A latency percentile's name (`latency.p99`, `latency.uncorrected.p50`), which carries a range; not the max. */
    private val PERCENTILE = Regex("latency(\\.uncorrected)?\\.p[0-9.]+")

    fun isPercentile(metric: String): Boolean = PERCENTILE.matches(metric)

    /** The probability that the range of [n] iterations holds their median: 1 − 2 × 0.5^n. */
    fun coverage(n: Int): Double = if (n < 1) 0.0 else 1 - 2 * 0.5.pow(n)

    /** The chance that the ranges of [m] and [n] iterations from one distribution do not overlap: 2 / C(m+n, m). */
    fun apartP(m: Int, n: Int): Double {
        if (m < 1 || n < 1) return 1.0
        var ways = 1.0 // C(m+n, m), as a double: 2 / C is all that is asked of it
        for (i in 1..m) ways = ways * (n + i) / i
        return (2 / ways).coerceAtMost(1.0)
    }
}
