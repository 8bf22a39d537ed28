package serverbench.report

import java.math.BigDecimal
import java.math.MathContext
import kotlin.math.abs
import kotlin.math.ceil
import kotlin.math.floor
import kotlin.math.log10
import kotlin.math.pow

/**
 * One chart axis: its range, log or linear, and the tick values it labels ([major]) or only marks with a grid line
 * ([minor]). Computed apart from any drawing so the ticks can be tested; [ChartAxes] draws exactly these.
 */
data class Scale(
    val lower: Double,
    val upper: Double,
    val log: Boolean,
    val major: List<Double>,
    val minor: List<Double>,
)

object Ticks {
    /** Above this many decades the 2 and 5 steps would crowd their labels: decades are labelled, 2 and 5 marked. */
    private const val MAX_DECADES_WITH_STEPS = 6.0

    /** How far (in decades) a log axis is stretched at most to end on a labelled tick. */
    private const val SNAP = 0.2

    /**
     * The axis for [values] (the plotted points) whose drawing must also hold [extent] (the points' interval ends):
     * log where the points span more than a decade, as a reader of a sweep over 100..300000 needs.
     */
    fun scale(values: List<Double>, extent: List<Double> = values): Scale {
        val all = (values + extent).filter { it.isFinite() }
        val lo = values.min()
        val hi = values.max()
        if (lo > 0 && hi / lo > 10) return log(all.filter { it > 0 }.min(), all.max())
        // An interval reaching below 0 for positive figures (a small score ± a wide error) is cut at the frame.
        return linear(if (lo >= 0) 0.0 else all.min(), all.max())
    }

    /** Log axis over [lo]..[hi], padded a little so no point sits on the frame; 1, 2 and 5 of every decade labelled. */
    fun log(lo: Double, hi: Double): Scale {
        val pad = (log10(hi) - log10(lo)).coerceAtLeast(0.5) * 0.04
        // Out to the next 1, 2 or 5 where that is close, so an end of the axis is labelled too.
        val lower = 10.0.pow(log10(lo) - pad).let { end -> nice(end, true).takeIf { log10(end / it) <= SNAP } ?: end }
        val upper = 10.0.pow(log10(hi) + pad).let { end -> nice(end, false).takeIf { log10(it / end) <= SNAP } ?: end }
        fun steps(mantissas: List<Int>) = (floor(log10(lower)).toInt()..ceil(log10(upper)).toInt())
            .flatMap { e -> mantissas.map { m -> clean(m * 10.0.pow(e)) } }.filter { it in lower..upper }
        val all = steps((1..9).toList())
        var major = if (log10(upper / lower) > MAX_DECADES_WITH_STEPS) steps(listOf(1)) else steps(listOf(1, 2, 5))
        // Within about a decade 1, 2 and 5 leave too few labels to read a value to two digits: label every step.
        if (major.size < 4) major = all
        return Scale(lower, upper, true, major, all - major.toSet())
    }

    /**
     * Linear axis from [lo] (0 for positive figures, so heights compare) to [hi] rounded up to a tick: the largest
     * step of 1, 2 or 5 × 10^k giving at least five intervals, minor grid lines between, so a value reads to two
     * digits.
     */
    fun linear(lo: Double, hi: Double): Scale {
        if (!(hi > lo)) return linear(minOf(lo, 0.0), if (lo > 0) lo * 1.2 else lo + 1)
        val span = hi - lo
        val steps = (floor(log10(span)).toInt() - 2..floor(log10(span)).toInt() + 1)
            .flatMap { e -> listOf(1, 2, 5).map { m -> m to m * 10.0.pow(e) } }
        val (mantissa, step) = steps.last { span / it.second >= 5 }
        // A little room so no point sits on the frame, then out to the next tick so both ends are labelled.
        val lower = if (lo == 0.0) 0.0 else floor((lo - span * 0.03) / step) * step
        val upper = ceil((hi + span * 0.03) / step) * step
        val count = Math.round((upper - lower) / step).toInt()
        val major = (0..count).map { clean(lower + it * step) }
        val parts = if (mantissa == 2) 4 else 5
        val minor = (0 until count * parts).map { clean(lower + it * step / parts) } - major.toSet()
        return Scale(lower, upper, false, major, minor)
    }

    /** The nearest 1, 2 or 5 × 10^k at or below (or above) [v]. */
    private fun nice(v: Double, down: Boolean): Double {
        val e = floor(log10(v)).toInt()
        val candidates = (e - 1..e + 1).flatMap { k -> listOf(1, 2, 5).map { clean(it * 10.0.pow(k)) } }
        return if (down) candidates.last { it <= v } else candidates.first { it >= v }
    }

    /** Tick label: 200, 2.5k, 1.2M, 0.05 (no float noise, no trailing zeros). */
    fun label(v: Double): String {
        val (scaled, suffix) = when {
            abs(v) >= 1e6 -> v / 1e6 to "M"
            abs(v) >= 1e3 -> v / 1e3 to "k"
            else -> v to ""
        }
        return BigDecimal(scaled).round(MathContext(6)).stripTrailingZeros().toPlainString() + suffix
    }

    /** 3 × 0.1 is 0.30000000000000004: ticks are compared and labelled, so round away the float noise. */
    private fun clean(v: Double): Double = if (v == 0.0) 0.0 else BigDecimal(v).round(MathContext(12)).toDouble()
}
