package serverbench.report

import java.util.Locale

/**
 * How the findings' "beyond noise" counts forks. A row is usually one fork, and its interval holds only that fork's
 * iterations, while whole forks of one configuration differ by more (each has its own JIT decisions and memory layout:
 * docs/compare.md). So each row's interval (req/s) or range (p99) is widened by [SHARE] of its figure before two rows
 * are compared: two forks of one configuration whose means differ by a coefficient of variation of up to [BASIS_CV]
 * are then marked apart at most [PROMISE] of the time (ForkAllowanceTest draws such pairs and counts). [SHARE] is
 * z(1 − [PROMISE] / 2) × √2 × [BASIS_CV] ÷ 2, ignoring the rows' own intervals, so the promise holds with room;
 * [BASIS_CV] and how it was measured are in docs/warmup.md.
 */
object ForkAllowance {
    /** Between-fork coefficient of variation the promise holds for (docs/warmup.md: measured on this machine). */
    const val BASIS_CV = 0.04

    /** The share of A/A pairs (two forks of one configuration) the findings may mark apart. */
    const val PROMISE = 0.01

    /** z(0.995): two-sided, for [PROMISE]. */
    private const val Z = 2.5758

    /** Each row's allowance, a share of its own figure. */
    val SHARE: Double = Z * Math.sqrt(2.0) * BASIS_CV / 2

    /** [m] with its interval (or range) widened by [SHARE] of its figure on each side. */
    fun widen(m: Metric): Metric {
        if (m.error.isNaN() || !m.score.isFinite()) return m
        val by = SHARE * Math.abs(m.score)
        return m.copy(error = m.error + by, low = m.low - by, high = m.high + by)
    }

    /** The rule as the findings print it. */
    val RULE: String = String.format(
        Locale.ROOT,
        "\"Beyond noise\" counts forks: a row is one fork, and forks of one configuration differ by more than one " +
            "fork's iterations do, so each row's interval is first widened by the between-fork allowance of ±%.1f %% " +
            "(for forks whose means vary by up to %.0f %%, docs/warmup.md: two forks of one configuration are then " +
            "marked at most 1 in %.0f times). Then for req/s, the two widened 99.9 %% " +
            "intervals do not overlap; for p99, the widened ranges of their per-iteration values do not overlap, " +
            "which happens by chance with p = 2 ÷ C(m+n, m) for m and n iterations, and p is at most 0.1 %% " +
            "(7 iterations a side reach it); where p is larger the line says \"ranges apart\" with its p.",
        100 * SHARE,
        100 * BASIS_CV,
        1 / PROMISE,
    )
}
