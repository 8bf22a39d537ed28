package serverbench.report

import serverbench.metrics.MetricCatalogue
import serverbench.metrics.MetricSpec
import serverbench.metrics.MetricSpec.Better
import serverbench.metrics.PercentileRange
import serverbench.params.Knobs
import tools.jackson.databind.json.JsonMapper
import tools.jackson.databind.node.ObjectNode
import java.math.BigDecimal
import java.math.MathContext
import java.util.Locale
import kotlin.math.abs
import kotlin.math.pow

/**
 * The results as trackers chart them across commits (`scripts/report --format`): github-action-benchmark's custom
 * tools, an array of `{name, unit, value, range?, extra?}` (`customBiggerIsBetter` for req/s, `customSmallerIsBetter`
 * for p99 and server CPU per request: the [MetricCatalogue]'s headlines by direction, one file each since a file has
 * one direction), and Bencher Metric Format,
 * `{benchmark: {measure: {value, lower_value?, upper_value?}}}`. One entry per run and metric, named by the benchmark
 * and its parameters, so that a chart follows one configuration from commit to commit.
 */
object TrackerExport {
    enum class Format(val option: String) {
        MARKDOWN("markdown"),
        BIGGER("github-benchmark-bigger"),
        SMALLER("github-benchmark-smaller"),
        BENCHER("bencher"),
        ;

        companion object {
            fun of(option: String): Format? = entries.firstOrNull { it.option == option }
            val options: String get() = entries.joinToString(", ") { it.option }
        }
    }

    /** Time units as powers of ten of a second. */
    private val EXPONENT = mapOf("ns" to -9, "us" to -6, "µs" to -6, "ms" to -3, "s" to 0)

    /**
     * [runs] as [format]; [leftOut] hears of each run left out: one whose throughput was still changing while it was
     * measured (`warning.notSteady`), whose figures must not be compared with another commit's.
     */
    fun render(format: Format, runs: List<BenchmarkResult>, leftOut: (String) -> Unit = {}): String {
        val kept = runs.filter { run ->
            if (run.notSteady) leftOut("${name(run)}: not steady (warning.notSteady), left out of the export")
            !run.notSteady
        }
        val mapper = JsonMapper.builder().build()
        val tree = when (format) {
            Format.BIGGER -> github(mapper, kept, MetricCatalogue.headlines.filter { it.better == Better.HIGHER })
            Format.SMALLER -> github(mapper, kept, MetricCatalogue.headlines.filter { it.better == Better.LOWER })
            Format.BENCHER -> bencher(mapper, kept)
            Format.MARKDOWN -> error("markdown is the report itself")
        }
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(tree) + "\n"
    }

    /**
     * `CpuBenchmark.direct (concurrency=64, limit=10000, server=netty)`: parameters by name, unset knobs left out; a
     * run against a target adds `target` (its server ran in a process of its own: a series of its own).
     */
    fun name(run: BenchmarkResult): String {
        val remote = run.remote
        val params = (
            run.params.filterNot {
                Knobs.unset(it.key, it.value)
            }.toSortedMap().entries.map { "${it.key}=${it.value}" } +
                listOfNotNull("target".takeIf { remote })
            ).joinToString(", ")
        val method = run.benchmark.split('.').takeLast(2).joinToString(".")
        return if (params.isEmpty()) method else "$method ($params)"
    }

    private fun github(mapper: JsonMapper, runs: List<BenchmarkResult>, metrics: List<MetricSpec>) =
        mapper.createArrayNode().also {
            for (run in runs) {
                for (t in metrics) {
                    val m = converted(run, t) ?: continue
                    val o = it.addObject()
                    o.put("name", "${name(run)} · ${t.headline!!.label}")
                    o.put("unit", t.headline.unit)
                    o.put("value", m.score)
                    range(m)?.let { r -> o.put("range", r) }
                    o.put("extra", extra(run, t, range(m) != null))
                }
            }
        }

    private fun bencher(mapper: JsonMapper, runs: List<BenchmarkResult>): ObjectNode = mapper.createObjectNode().also {
        for (run in runs) {
            val measures = mapper.createObjectNode()
            for (t in MetricCatalogue.headlines) {
                val m = converted(run, t) ?: continue
                val o = measures.putObject(t.headline!!.slug)
                o.put("value", m.score)
                if (m.low.isFinite() && m.high.isFinite()) {
                    // No headline figure can be negative; a wide interval of few iterations can reach below 0.
                    o.put("lower_value", maxOf(0.0, m.low))
                    o.put("upper_value", m.high)
                }
            }
            if (!measures.isEmpty) it.set(name(run), measures)
        }
    }

    /**
     * The run's [t] in its headline's unit, a time converted to it; null when the run has none, or no number (JSON
     * holds no NaN).
     */
    private fun converted(run: BenchmarkResult, t: MetricSpec): Metric? {
        val m = run.metric(t.name)?.takeIf { it.score.isFinite() } ?: return null
        val to = EXPONENT[t.headline!!.unit] ?: return m
        val from = EXPONENT[m.unit] ?: return null
        val k = 10.0.pow(from - to)

        // 12 digits: 0.21 ms is 210 µs, not 210.00000000000003.
        fun scaled(x: Double) = if (x.isFinite()) BigDecimal(x * k).round(MathContext(12)).toDouble() else x
        return Metric(scaled(m.score), scaled(m.error), t.headline.unit, scaled(m.low), scaled(m.high))
    }

    /** The figure's interval: `± e` when symmetric (JMH's), its ends when not (a percentile's iteration range). */
    private fun range(m: Metric): String? {
        if (m.error.isNaN() || !m.low.isFinite() || !m.high.isFinite()) return null
        val symmetric = abs((m.score - m.low) - (m.high - m.score)) <= 1e-9 * maxOf(1.0, abs(m.score))
        return if (symmetric) "± ${num(m.error)}" else "${num(m.low)} – ${num(m.high)}"
    }

    private fun extra(run: BenchmarkResult, t: MetricSpec, ranged: Boolean): String = listOfNotNull(
        if (ranged) rangeMeaning(run, t) else null,
        "${plural(run.forks, "fork")} × ${plural(run.iterations, "iteration")} of ${run.iterationTime}"
            .takeIf { run.forks > 0 },
        run.jdkVersion.takeIf { it.isNotEmpty() }?.let { "JDK $it" },
        run.warnings.takeIf { it.isNotEmpty() }?.let { "warnings: ${it.joinToString(", ")}" },
    ).joinToString("\n")

    /** What the range holds: JMH's interval, or for a percentile the range of its per-iteration values. */
    private fun rangeMeaning(run: BenchmarkResult, t: MetricSpec): String {
        val label = t.headline!!.label
        if (!PercentileRange.isPercentile(t.name)) return "range: JMH's 99.9 % interval"
        val n = run.iterations * maxOf(1, run.forks)
        val coverage = "%.1f".format(Locale.ROOT, 100 * PercentileRange.coverage(n))
        return "range: lowest to highest $label of the $n measured iterations (holds a typical iteration's " +
            "$label with $coverage % probability)"
    }

    private fun plural(n: Int, word: String) = if (n == 1) "1 $word" else "$n ${word}s"

    /** Four significant digits, never in exponent form: `6550`, `0.01852`. */
    private fun num(x: Double): String = BigDecimal(x).round(MathContext(4)).stripTrailingZeros().toPlainString()
}
