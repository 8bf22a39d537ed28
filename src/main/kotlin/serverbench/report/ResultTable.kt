package serverbench.report

import serverbench.metrics.FigureFormat
import serverbench.metrics.MetricCatalogue
import serverbench.metrics.MetricSpec
import serverbench.metrics.Steadiness
import serverbench.params.Knobs
import serverbench.params.ParamNames
import java.io.File
import java.util.Locale
import kotlin.math.abs

/**
 * One table of a report: the rows of one family under one CPU placement, a column per parameter that varies among
 * them and per metric the catalogue shows ([MetricSpec.Column]), each cell with its change against the baseline row
 * of the same key, marked by [Significance], and the notes the rows need below it.
 */
internal class ResultTable(
    private val runs: List<BenchmarkResult>,
    private val baseByKey: Map<String, BenchmarkResult>,
    private val withBaseline: Boolean,
    flamegraphs: (BenchmarkResult) -> List<String>,
    /** Run key -> its latency-over-time chart ([LatencyTimeline]); a column only where a row has one. */
    private val timelines: Map<String, String> = emptyMap(),
) {
    private val varying = Knobs.varying(runs.map { it.params }).filter { it !in ALWAYS && it != BenchmarkResult.ENGINE }

    // Rows of other engines sit right after the harness's row of the same workload.
    private val engines = if (runs.any {
            BenchmarkResult.ENGINE in it.params
        }
    ) {
        listOf(BenchmarkResult.ENGINE)
    } else {
        listOf()
    }
    private val columns = MetricCatalogue.columns.filter { shown(it) }
    private val warned = runs.any { it.warnings.isNotEmpty() }

    // Once per row: a differential flamegraph is made by the call.
    private val graphs = runs.associateWith { flamegraphs(it) }
    private val withGraphs = graphs.values.any { it.isNotEmpty() }
    private val withTimelines = runs.any { it.key in timelines }

    fun appendTo(out: StringBuilder) {
        out.append("\n")
        out.append(TlsCondition.tableHeader(runs))
        val headers = listOf("variant") + ALWAYS + engines + varying + columns.map { it.column!!.header } +
            (if (warned) listOf("warnings") else emptyList()) +
            (if (withGraphs) listOf("flamegraphs") else emptyList()) +
            (if (withTimelines) listOf(TIMELINE) else emptyList())
        val textual = setOf("variant") + ALWAYS + engines + varying
        out.append(headers.joinToString(" | ", "| ", " |\n"))
        out.append(headers.joinToString(" | ", "| ", " |\n") { if (it in textual) "---" else "---:" })
        val sorted = runs.sortedWith(
            compareBy<BenchmarkResult>({ it.variant }, { it.params[ParamNames.SERVER] })
                .thenComparator { a, b -> compareParams(varying, a.params, b.params) }
                .thenBy { it.engine != BenchmarkResult.HARNESS }.thenBy { it.engine },
        )
        for (run in sorted) out.append(cells(run).joinToString(" | ", "| ", " |\n"))
        appendNotes(out)
    }

    private fun cells(run: BenchmarkResult): List<String> {
        val cells = ArrayList<String>()
        cells += run.variant
        ALWAYS.forEach { cells += run.params[it] ?: "" }
        engines.forEach { _ -> cells += run.engine }
        varying.forEach { cells += run.params[it] ?: Results.absentAs(it) ?: "" }
        val old = baseByKey[run.key]
        for (metric in columns) cells += cell(metric, run, old)
        if (warned) cells += run.warnings.joinToString(", ")
        if (withGraphs) cells += graphs.getValue(run).joinToString(" ") { "[${File(it).nameWithoutExtension}]($it)" }
        if (withTimelines) cells += timelines[run.key]?.let { "[p50, p99]($it)" } ?: ""
        return cells
    }

    /** What the rows need said below the table: unsteady rows, unjudged steadiness, lower bounds, missing baselines. */
    private fun appendNotes(out: StringBuilder) {
        if (runs.any { it.notSteady } || runs.any { baseByKey[it.key]?.notSteady == true }) {
            val legend = RowFlags.notSteadyLegend(runs) {
                "${it.family}.${it.variant} ${it.params[ParamNames.SERVER].orEmpty()}".trim()
            }
            out.append("\n").append(legend).append("\n")
        }
        val unjudged = runs.count { it.steadinessNotJudged }
        if (unjudged > 0) {
            out.append(
                "\nSteadiness not judged for $unjudged of ${runs.size} rows: fewer than ${Steadiness.MIN_ITERATIONS} " +
                    "measured iterations per fork are too few to judge whether throughput was steady " +
                    "(`-i ${Steadiness.MIN_ITERATIONS}` or more)" +
                    (if (withBaseline) "; their changes are marked as if it was.\n" else ".\n"),
            )
        }
        if (runs.any { it.allocLowerBound }) {
            out.append(
                "\n≥ heap B/req: a lower bound (`heap.allocLowerBound`): not all of the run's allocation could " +
                    "be counted.\n",
            )
        }
        if (withBaseline) {
            val missing = runs.count { baseByKey[it.key] == null }
            if (missing > 0) out.append("\n$missing of ${runs.size} rows have no baseline with the same parameters.\n")
        }
    }

    /** Whether this table has a column for [metric] ([MetricSpec.Shown]). */
    private fun shown(metric: MetricSpec): Boolean = when (metric.column!!.shown) {
        MetricSpec.Shown.ALWAYS -> true
        MetricSpec.Shown.OPEN_LOOP -> runs.any { it.openLoop }
        MetricSpec.Shown.UNDER_BUDGET -> runs.any { it.metric(MetricCatalogue.THROTTLED.name) != null }
        MetricSpec.Shown.MEASURED -> runs.any { it.metric(metric.name) != null }
        MetricSpec.Shown.ABOVE_ZERO -> runs.any { (it.metric(metric.name)?.score ?: 0.0) > 0 }
    }

    private fun cell(spec: MetricSpec, run: BenchmarkResult, oldRun: BenchmarkResult?): String {
        val metric = spec.name
        val now = run.metric(metric)
        val old = oldRun?.metric(metric)
        if (now == null || now.score.isNaN()) return "–"
        val value = value(spec, run, now)
        if (!withBaseline || old == null || old.score.isNaN()) return value
        val delta = delta(now.score, old.score)
        // A throughput still changing while measured says nothing about the change: no mark either way.
        if (run.notSteady) return "$value ($delta)"
        if (oldRun.notSteady) {
            return if (metric == BenchmarkResult.SCORE) "$value ($delta, baseline not steady)" else "$value ($delta)"
        }
        return when (Significance.of(metric, now, old)) {
            Significance.Change.NONE -> "$value ($delta)"
            Significance.Change.BETTER -> "$value **(▲ $delta)**"
            Significance.Change.WORSE -> "$value **(▼ $delta)**"
            Significance.Change.DIFFERENT -> "$value **($delta)**"
        }
    }

    /** The figure as the cell shows it: "≥" on a lower bound, req/s with its ± and "(not steady)". */
    private fun value(spec: MetricSpec, run: BenchmarkResult, now: Metric): String {
        // A capacity is told with its kind, never as a bare number (a lower bound, the load generator's limit).
        if (spec == MetricCatalogue.CAPACITY) Capacity.of(run)?.let { return it.cell() }
        val lowerBound = spec == MetricCatalogue.ALLOC_PER_REQ && run.allocLowerBound
        val throughput = spec.name == BenchmarkResult.SCORE
        val interval = if (throughput && !now.error.isNaN()) " ± ${FigureFormat.format(now.error)}" else ""
        val unsteady = if (throughput && run.notSteady) " (not steady)" else ""
        return (if (lowerBound) "≥ " else "") + FigureFormat.format(spec, now.score) + interval + unsteady
    }

    /** The change in %, or "new" where the baseline's figure was 0 and this one is not. */
    private fun delta(now: Double, old: Double): String {
        val pct = when {
            old != 0.0 -> 100 * (now - old) / abs(old)
            now == 0.0 -> 0.0
            else -> Double.POSITIVE_INFINITY
        }
        return if (pct.isInfinite()) "new" else String.format(Locale.ROOT, "%+.1f %%", pct)
    }

    companion object {
        /** Parameters every result has; the others are shown as columns only where they vary within a family. */
        val ALWAYS = listOf(ParamNames.SERVER)

        /** The column that links a row's latency-over-time chart. */
        const val TIMELINE = "latency over time"
    }
}
