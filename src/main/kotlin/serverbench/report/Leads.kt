package serverbench.report

import serverbench.metrics.FigureFormat
import serverbench.metrics.MetricCatalogue
import serverbench.metrics.MetricSpec
import java.util.Locale
import serverbench.params.ParamNames as N

/**
 * How a finding says one row leads another: the rows ranked by a metric, the lead over the runner-up by how much, and
 * whether it is beyond both rows' noise ([Significance] on intervals widened by [ForkAllowance]); and how a row is
 * named in a finding.
 */
internal object Leads {
    private val P99 = MetricCatalogue.P99.name

    /** The rows that have [metric], best first. */
    fun ranked(runs: List<BenchmarkResult>, metric: String): List<BenchmarkResult> = runs
        .filter { it.metric(metric)?.score?.isFinite() == true }
        .sortedBy { it.metric(metric)!!.score.let { s -> if (higherBetter(metric)) -s else s } }

    /**
     * "most req/s **netty direct**: 9,800 vs 7,840 (tomcat direct), +25 %, beyond noise": the best row by [metric]
     * against the runner-up. Null when fewer than two rows have the figure.
     */
    fun lead(runs: List<BenchmarkResult>, metric: String): String? {
        val higherBetter = higherBetter(metric)
        val ranked = ranked(runs, metric)
        if (ranked.size < 2) return null
        val (best, next) = ranked[0].metric(metric)!! to ranked[1].metric(metric)!!
        val what = when {
            higherBetter -> "most req/s **${name(ranked[0])}**"

            // The row that leads on req/s too is not named twice.
            ranked[0] === ranked(runs, BenchmarkResult.SCORE).firstOrNull() -> "lowest p99 too"

            else -> "lowest p99 **${name(ranked[0])}**"
        }
        val unit = if (higherBetter) "" else " ms"
        return "$what: ${FigureFormat.format(
            best.score,
        )} vs ${FigureFormat.format(next.score)}$unit (${name(ranked[1])})" +
            (relative(best.score, next.score, higherBetter)?.let { ", $it" } ?: "") +
            ", ${noiseText(metric, best, next)}"
    }

    fun higherBetter(metric: String) = MetricCatalogue.of(metric)?.better == MetricSpec.Better.HIGHER

    /** How far the best is ahead: "+25 %" or "3.1×" for req/s, "-17 %" or "3.1× lower" for a latency. */
    fun relative(best: Double, next: Double, higherBetter: Boolean): String? {
        val ratio = if (higherBetter) best / next else next / best
        if (!ratio.isFinite() || ratio <= 0) return null
        if (ratio >= 2) {
            return String.format(Locale.ROOT, if (ratio < 10) "%.1f×" else "%.0f×", ratio) +
                (if (higherBetter) "" else " lower")
        }
        val pct = 100 * (if (higherBetter) ratio - 1 else 1 - 1 / ratio)
        val sign = if (higherBetter) "+" else "-"
        return String.format(Locale.ROOT, if (pct < 10) "%s%.1f %%" else "%s%.0f %%", sign, pct)
    }

    /** How a lead compares with the two rows' noise, by the report's rule ([Significance]). */
    enum class Noise { NO_INTERVAL, WITHIN, BEYOND, APART }

    /** Each row's interval widened by the between-fork allowance first ([ForkAllowance]). */
    fun noise(metric: String, x: Metric, y: Metric): Noise {
        val (a, b) = ForkAllowance.widen(x) to ForkAllowance.widen(y)
        return when {
            a.error.isNaN() || b.error.isNaN() -> Noise.NO_INTERVAL
            Significance.of(metric, a, b) != Significance.Change.NONE -> Noise.BEYOND
            Significance.overlap(a, b) -> Noise.WITHIN
            else -> Noise.APART // percentile ranges apart, at a level weaker than the report's (or unknown)
        }
    }

    fun noiseText(metric: String, a: Metric, b: Metric): String = when (noise(metric, a, b)) {
        Noise.NO_INTERVAL -> "no interval to tell it from noise"

        Noise.BEYOND -> "beyond noise"

        Noise.WITHIN -> "within noise"

        Noise.APART -> Significance.apartP(a, b).let { p ->
            if (p.isNaN()) "ranges apart (iterations unknown)" else "ranges apart, p = ${percent(p)}"
        }
    }

    /** 0.79 %, 10 %. */
    private fun percent(p: Double): String =
        String.format(Locale.ROOT, if (100 * p >= 10) "%.0f %%" else "%.2g %%", 100 * p)

    fun figures(run: BenchmarkResult): String = "${FigureFormat.format(run.primary.score)} req/s" +
        (run.metric(P99)?.takeIf { it.score.isFinite() }?.let { ", p99 ${FigureFormat.format(it.score)} ms" } ?: "")

    fun name(run: BenchmarkResult): String = listOfNotNull(run.params[N.SERVER], variant(run)).joinToString(" ")

    /** "direct", or "direct on hyperfoil" for a row another load engine measured. */
    fun variant(run: BenchmarkResult): String =
        run.variant + if (run.engine == BenchmarkResult.HARNESS) "" else " on ${run.engine}"
}
