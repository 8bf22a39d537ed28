package serverbench.metrics

import org.openjdk.jmh.util.ListStatistics
import kotlin.math.abs
import kotlin.math.sqrt

/**
 * Is a series of throughput figures steady? Used twice: to end the warmup once the server is steady (windows of load
 * before measurement, [warmedUp]), and to flag measured iterations that were not ([judge]).
 *
 * Why these tests: the coefficient of variation of the last k figures is Georges et al.'s steady-state rule; on its own
 * it passes a slow climb, so the total change over those figures (Sen's slope, robust to one outlier) must be small
 * too, and so must the change from the k figures before them: a climb of under 1 % a window hides in k windows' noise
 * (docs/warmup.md: Tomcat `suspendFun`), not over 2k. For the measured iterations the question is whether a reader may
 * compare the score: it may not when the iterations still trend (Mann-Kendall, exact for small n: still warming) or
 * when their 99.9 % interval is wider than [MAX_INTERVAL] of the score both with every iteration and without the one
 * farthest from their median (noisy). Why the second: with 8 iterations of 1 s (the quick suite) t = 5.4, and a single
 * stray window (a neighbour's burst, a GC) flipped rows whose others agreed within ±2 %; two stray windows still count
 * (docs/warmup.md). Below [MIN_ITERATIONS] neither test can judge, so there
 * is no verdict: the trend test cannot reach [TREND_P] (its smallest two-sided p is 1/3 at 3 iterations, 1/12 at 4),
 * and t(0.9995, 2) = 31.6 makes the interval rule at 3 iterations flag any standard deviation above 0.55 % of the
 * score.
 */
object Steadiness {
    /** Warmup: figures compared (the last k windows). */
    const val WINDOWS = 5

    /** Warmup: the CV and the total drift across the last [WINDOWS] windows that count as steady, at the least. */
    const val TOLERANCE = 0.03

    /** Measured iterations: JMH's 99.9 % half-interval beyond this share of the score is not steady. */
    const val MAX_INTERVAL = 0.10

    /**
     * Measured iterations: a trend counts when Mann-Kendall's two-sided p is below this and it moved the score by over
     * [MIN_TREND].
     */
    const val TREND_P = 0.05
    const val MIN_TREND = 0.02

    /** Measured iterations: fewer get no verdict (see the class comment). */
    const val MIN_ITERATIONS = 5

    /**
     * The measured iterations' verdict, given on a fork's last measured iteration. Not `sealed`: JMH's bytecode
     * generator, which scans every class of the jar, cannot read the PermittedSubclasses attribute.
     */
    abstract class Verdict {
        object Steady : Verdict()

        /** [why]: the test that failed, with its figures; [warming]: a trend (else a wide interval: noisy). */
        class NotSteady(val why: String, val warming: Boolean) : Verdict() {
            /** As `warning.notSteady` records it: 1 still warming, 2 noisy ([NOISY_FLAG]). */
            val flag: Double get() = if (warming) WARMING_FLAG else NOISY_FLAG
        }

        /** Too few iterations for either test: no verdict, [why] says so and what to run instead. */
        class TooFew(val why: String) : Verdict()
    }

    /**
     * Steady warmup: the last [WINDOWS] figures vary by at most [tolerance] (CV), drift by at most as much, and their
     * mean is within as much of the [WINDOWS] before them. [tolerance] is at least [TOLERANCE]; the caller widens it
     * where windows cannot be more precise (see its use).
     */
    fun warmedUp(figures: List<Double>, tolerance: Double = TOLERANCE): Boolean {
        if (figures.size < 2 * WINDOWS) return false
        val last = figures.takeLast(WINDOWS)
        val before = figures.takeLast(2 * WINDOWS).take(WINDOWS)
        val mean = last.average()
        if (mean <= 0) return false
        return cv(last) <= tolerance && abs(senSlope(last) * (WINDOWS - 1)) / mean <= tolerance &&
            abs(mean - before.average()) / mean <= tolerance
    }

    /** `warning.notSteady` values: the iterations trend (warm up longer), or scatter too widely (a noisy machine). */
    const val WARMING_FLAG = 1.0
    const val NOISY_FLAG = 2.0

    /** The verdict on measured iterations [scores]. */
    fun judge(scores: List<Double>): Verdict {
        if (scores.size < MIN_ITERATIONS) {
            val n = "${scores.size} measured iteration${if (scores.size == 1) "" else "s"}"
            return Verdict.TooFew("only $n: too few iterations to judge steadiness (-i $MIN_ITERATIONS or more)")
        }
        return notSteady(scores) ?: Verdict.Steady
    }

    /** Why [MIN_ITERATIONS] or more measured iterations [scores] are not steady, or null when they are. */
    private fun notSteady(scores: List<Double>): Verdict.NotSteady? {
        val mean = scores.average()
        if (mean <= 0) return null
        // A trend first: a climb also widens the interval, and its remedy (a longer warmup) is the other one.
        val p = mannKendallP(scores)
        val drift = senSlope(scores) * (scores.size - 1) / mean
        if (p < TREND_P && abs(drift) > MIN_TREND) {
            val why = "the iterations still trend (%+.0f %% from first to last, Mann-Kendall p = %.3f): still warming"
            return Verdict.NotSteady(why.format(100 * drift, p), warming = true)
        }
        // Noisy only when the interval is wide both with every iteration and without the one farthest from the median.
        val half = listOf(scores, withoutFarthest(scores)).minOf { halfInterval(it) / it.average() }
        if (half > MAX_INTERVAL) {
            val why = "the 99.9 %% interval is ±%.0f %% of the score, with or without the iteration farthest from " +
                "the median (over ±%.0f %%): noisy"
            return Verdict.NotSteady(why.format(100 * half, 100 * MAX_INTERVAL), warming = false)
        }
        return null
    }

    private fun halfInterval(xs: List<Double>) = ListStatistics(xs.toDoubleArray()).getMeanErrorAt(0.999)

    /** [scores] without the one farthest from their median (the first such, on a tie). */
    fun withoutFarthest(scores: List<Double>): List<Double> {
        val sorted = scores.sorted()
        val n = sorted.size
        val median = if (n % 2 == 1) sorted[n / 2] else (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        val farthest = scores.indices.maxByOrNull { abs(scores[it] - median) } ?: return scores
        return scores.filterIndexed { i, _ -> i != farthest }
    }

    fun cv(xs: List<Double>): Double {
        val mean = xs.average()
        if (xs.size < 2 || mean == 0.0) return 0.0
        val variance = xs.sumOf { (it - mean) * (it - mean) } / (xs.size - 1)
        return sqrt(variance) / abs(mean)
    }

    /** Sen's slope: the median of the pairwise slopes (per step). */
    fun senSlope(xs: List<Double>): Double {
        val slopes = ArrayList<Double>()
        for (i in xs.indices) for (j in i + 1 until xs.size) slopes += (xs[j] - xs[i]) / (j - i)
        if (slopes.isEmpty()) return 0.0
        slopes.sort()
        val n = slopes.size
        return if (n % 2 == 1) slopes[n / 2] else (slopes[n / 2 - 1] + slopes[n / 2]) / 2
    }

    /**
     * Two-sided p-value of Mann-Kendall's S (no ties assumed; ties count as neither concordant nor discordant), exact:
     * under no trend every order is equally likely, and S = C(n,2) − 2 × (inversions), whose distribution is the
     * Mahonian numbers.
     */
    fun mannKendallP(xs: List<Double>): Double {
        val n = xs.size
        if (n < 2) return 1.0
        var s = 0
        for (i in 0 until n) for (j in i + 1 until n) s += xs[j].compareTo(xs[i]).coerceIn(-1, 1)
        val pairs = n * (n - 1) / 2
        // counts[k] = permutations of n with k inversions
        var counts = DoubleArray(1) { 1.0 }
        for (m in 2..n) {
            val next = DoubleArray(counts.size + m - 1)
            for (k in counts.indices) for (add in 0 until m) next[k + add] += counts[k]
            counts = next
        }
        val total = counts.sum()
        // |S| >= |s|  <=>  inversions <= (pairs - |s|) / 2 or >= (pairs + |s|) / 2
        val lowInv = (pairs - abs(s)) / 2.0
        var tail = 0.0
        for (k in counts.indices) if (k <= lowInv || k >= pairs - lowInv) tail += counts[k]
        return (tail / total).coerceAtMost(1.0)
    }
}
