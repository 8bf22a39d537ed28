package serverbench.report

import serverbench.metrics.FigureFormat
import serverbench.metrics.MetricCatalogue
import serverbench.metrics.MetricSpec
import serverbench.metrics.PercentileRange
import serverbench.metrics.Steadiness
import serverbench.params.Knobs
import java.io.File
import java.util.Locale
import kotlin.math.abs

/**
 * Turns JMH JSON into the markdown a pull-request reviewer reads: one table per workload family, and with a baseline
 * the change of every figure, marked significant only at the 99.9 % level: where the two runs' 99.9 % intervals do not
 * overlap (JMH's own error bars: a difference inside them is noise this run cannot tell from a change), and for a
 * latency percentile, whose interval is the range of its per-iteration values ([PercentileRange]), where the ranges
 * do not overlap and would by chance at most [LEVEL] of the time. No mark is a statement too: the runs could not tell
 * the two apart.
 */
object Report {
    /** Parameters every result has; the others are shown as columns only where they vary within a family. */
    private val ALWAYS = listOf("server")

    enum class Change { NONE, BETTER, WORSE, DIFFERENT }

    /** The chance of a mark without a difference that a mark allows: the 99.9 % level of JMH's intervals. */
    const val LEVEL = 0.001

    /**
     * The rule: significant iff both intervals are known and do not overlap, and for a latency percentile the ranges'
     * being apart has a chance of at most [LEVEL] without a difference ([apartP]). Whether higher is better depends on
     * the metric (throughput up is better, latency up is worse).
     */
    fun significance(metric: String, head: Metric, base: Metric): Change {
        if (head.error.isNaN() || base.error.isNaN()) {
            // No interval (one iteration, or a count like errors): only an exact count difference is certain.
            val counted = metric == MetricCatalogue.ERRORS.name && head.score != base.score
            return if (counted) direction(metric, head.score - base.score) else Change.NONE
        }
        if (overlap(head, base)) return Change.NONE
        if (PercentileRange.isPercentile(metric) && !(apartP(head, base) <= LEVEL)) return Change.NONE
        return direction(metric, head.score - base.score)
    }

    fun overlap(a: Metric, b: Metric): Boolean = a.low <= b.high && b.low <= a.high

    /** For two percentiles' ranges, the chance they are apart when nothing differs; NaN when a count is unknown. */
    fun apartP(a: Metric, b: Metric): Double =
        if (a.samples > 0 && b.samples > 0) PercentileRange.apartP(a.samples, b.samples) else Double.NaN

    private fun direction(metric: String, delta: Double): Change = when (MetricCatalogue.of(metric)?.better) {
        MetricSpec.Better.HIGHER -> if (delta > 0) Change.BETTER else Change.WORSE
        MetricSpec.Better.LOWER -> if (delta < 0) Change.BETTER else Change.WORSE
        else -> Change.DIFFERENT
    }

    fun markdown(
        head: List<BenchmarkResult>,
        headName: String,
        base: List<BenchmarkResult>?,
        baseName: String?,
        charts: Map<String, List<String>> = emptyMap(),
        flamegraphs: (BenchmarkResult) -> List<String> = { emptyList() },
    ): String {
        val out = StringBuilder()
        out.append("# serverbench results: $headName")
        if (base != null) out.append(" vs baseline $baseName")
        out.append("\n\n")
        out.append(
            "Closed-loop figures (each connection waits for its answer before the next request), except rows with a " +
                "`rate` above 0: open loop, requests sent on a fixed schedule, where p50/p99 run from each request's " +
                "scheduled send (corrected for coordinated omission) and \"uncorrected p99\" from its actual send. ",
        )
        out.append("req/s counts successful, validated responses only; ± is JMH's 99.9 % interval.")
        if (head.any { MetricCatalogue.SERVER_REMOTE.name in it.secondary }) {
            out.append(
                " Runs against a server on its own host (`-Dserverbench.target`): its CPU, heap, threads and " +
                    "throttling were measured in that server's process (over its admin endpoint), latency, req/s " +
                    "and the client's CPU in the benchmark's JVM.",
            )
        }
        if (head.any { BenchmarkResult.ENGINE in it.params }) {
            out.append(
                " The `engine` column says which load engine measured a row: `serverbench` (the harness's client), " +
                    "`hyperfoil` (`scripts/hyperfoil`: the same workload on Hyperfoil 0.25.2 in-VM against " +
                    "`scripts/serve` on this machine) or `hyperfoil-agents` (the same file on a Hyperfoil " +
                    "controller's agents, imported); Hyperfoil's rows after a fixed warmup, latency from its " +
                    "histogram of 2 significant digits" +
                    (
                        if (head.any { it.engine.startsWith("hyperfoil") && it.params["server"] == "tomcat" }) {
                            "; its Tomcat rows with unlimited keep-alive requests, as Hyperfoil 0.25.2 ignores " +
                                "`Connection: close`"
                        } else {
                            ""
                        }
                        ) + ").",
            )
        }
        if (base != null) {
            out.append(
                " Change vs baseline in %; **bold** with ▲ (better) or ▼ (worse) only where the two runs' 99.9 % " +
                    "intervals do not overlap, i.e. the difference is larger than either run's own noise; for p50, " +
                    "p99 and p99.9, whose interval is the range of the per-iteration values, where the two ranges do " +
                    "not overlap, which happens by chance with p = 2 ÷ C(m+n, m) for m and n iterations, and p is at " +
                    "most 0.1 % (7 iterations a side reach it). Two " +
                    "separate runs cannot see fork-to-fork and sitting-to-sitting variance (docs/compare.md): for a " +
                    "verdict you can trust, run both sides interleaved in one sitting with `scripts/compare`.",
            )
        }
        out.append("\n")
        if (base != null) BaselinePairs.clientThreads(head, base)?.let { out.append("\n$it\n") }
        // Not against a baseline: that report asks what a change did, and verdicts on the head alone would read as its.
        if (base == null) out.append(Findings.markdown(head))
        val baseByKey = base?.associateBy { it.key } ?: emptyMap()
        for ((family, all) in head.groupBy { it.family }.toSortedMap()) {
            out.append("\n## $family\n")
            // Budgeted and unbudgeted servers answer different questions: never in one table.
            val placements = all.groupBy { placement(it) }.toSortedMap(compareBy({ it != UNBUDGETED }, { it }))
            for ((placement, runs) in placements) {
                if (placements.size > 1 || placement != UNBUDGETED) {
                    val under = if (placement == UNBUDGETED) "without a CPU budget" else "under $placement"
                    out.append("\n### Server $under\n")
                }
                table(out, runs, baseByKey, base != null, flamegraphs)
            }
            out.append(TopFrames.markdown(all))
            charts[family]?.forEach { out.append("\n![${File(it).nameWithoutExtension}]($it)\n") }
        }
        if (base != null) out.append(BaselinePairs.gone(head, base))
        return out.toString()
    }

    private const val UNBUDGETED = "unlimited"

    /** "cpus=1", "cpus=0.5, cpuset=1" or [UNBUDGETED]. */
    private fun placement(run: BenchmarkResult): String = run.budget.ifEmpty { UNBUDGETED }

    private fun table(
        out: StringBuilder,
        runs: List<BenchmarkResult>,
        baseByKey: Map<String, BenchmarkResult>,
        withBaseline: Boolean,
        flamegraphs: (BenchmarkResult) -> List<String>,
    ) {
        out.append("\n")
        out.append(TlsCondition.tableHeader(runs))
        val varying = Knobs.varying(runs.map { it.params }).filter { it !in ALWAYS && it != BenchmarkResult.ENGINE }
        // Rows of other engines sit right after the harness's row of the same workload.
        val engines = if (runs.any {
                BenchmarkResult.ENGINE in it.params
            }
        ) {
            listOf(BenchmarkResult.ENGINE)
        } else {
            emptyList()
        }
        val columns = MetricCatalogue.columns.filter { shown(it, runs) }
        val warned = runs.any { it.warnings.isNotEmpty() }
        // Once per row: a differential flamegraph is made by the call.
        val graphs = runs.associateWith { flamegraphs(it) }
        val headers = listOf("variant") + ALWAYS + engines + varying + columns.map { it.column!!.header } +
            (if (warned) listOf("warnings") else emptyList()) +
            (if (graphs.values.any { it.isNotEmpty() }) listOf("flamegraphs") else emptyList())
        out.append(headers.joinToString(" | ", "| ", " |\n"))
        out.append(
            headers.joinToString(" | ", "| ", " |\n") {
                if (it == "variant" || it in ALWAYS || it in engines || it in varying) "---" else "---:"
            },
        )
        val sorted = runs.sortedWith(
            compareBy<BenchmarkResult>({ it.variant }, { it.params["server"] })
                .thenComparator { a, b -> compareParams(varying, a.params, b.params) }
                .thenBy { it.engine != BenchmarkResult.HARNESS }.thenBy { it.engine },
        )
        for (run in sorted) {
            val cells = ArrayList<String>()
            cells += run.variant
            ALWAYS.forEach { cells += run.params[it] ?: "" }
            engines.forEach { _ -> cells += run.engine }
            varying.forEach { cells += run.params[it] ?: Results.absentAs(it) ?: "" }
            val old = baseByKey[run.key]
            for (metric in columns) cells += cell(metric, run, old, withBaseline)
            if (warned) cells += run.warnings.joinToString(", ")
            if (headers.last() == "flamegraphs") {
                cells += graphs.getValue(run).joinToString(" ") { "[${File(it).nameWithoutExtension}]($it)" }
            }
            out.append(cells.joinToString(" | ", "| ", " |\n"))
        }
        if (runs.any { it.notSteady } || runs.any { baseByKey[it.key]?.notSteady == true }) {
            out.append("\n").append(
                RowFlags.notSteadyLegend(runs) {
                    "${it.family}.${it.variant} ${it.params["server"].orEmpty()}".trim()
                },
            ).append("\n")
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

    /** Whether a table of [runs] has a column for [metric] ([MetricSpec.Shown]). */
    private fun shown(metric: MetricSpec, runs: List<BenchmarkResult>): Boolean = when (metric.column!!.shown) {
        MetricSpec.Shown.ALWAYS -> true
        MetricSpec.Shown.OPEN_LOOP -> runs.any { it.openLoop }
        MetricSpec.Shown.UNDER_BUDGET -> runs.any { it.metric(MetricCatalogue.THROTTLED.name) != null }
        MetricSpec.Shown.MEASURED -> runs.any { it.metric(metric.name) != null }
        MetricSpec.Shown.ABOVE_ZERO -> runs.any { (it.metric(metric.name)?.score ?: 0.0) > 0 }
    }

    private fun cell(spec: MetricSpec, run: BenchmarkResult, oldRun: BenchmarkResult?, withBaseline: Boolean): String {
        val metric = spec.name
        val now = run.metric(metric)
        val old = oldRun?.metric(metric)
        if (now == null || now.score.isNaN()) return "–"
        val value = (if (spec == MetricCatalogue.ALLOC_PER_REQ && run.allocLowerBound) "≥ " else "") +
            FigureFormat.format(spec, now.score) +
            (if (metric == BenchmarkResult.SCORE && !now.error.isNaN()) " ± ${format(now.error)}" else "") +
            (if (metric == BenchmarkResult.SCORE && run.notSteady) " (not steady)" else "")
        if (!withBaseline || old == null || old.score.isNaN()) return value
        val pct = when {
            old.score != 0.0 -> 100 * (now.score - old.score) / abs(old.score)
            now.score == 0.0 -> 0.0
            else -> Double.POSITIVE_INFINITY
        }
        val delta = if (pct.isInfinite()) "new" else String.format(Locale.ROOT, "%+.1f %%", pct)
        // A throughput still changing while measured says nothing about the change: no mark either way.
        if (run.notSteady) return "$value ($delta)"
        if (oldRun.notSteady) {
            return if (metric == BenchmarkResult.SCORE) "$value ($delta, baseline not steady)" else "$value ($delta)"
        }
        return when (significance(metric, now, old)) {
            Change.NONE -> "$value ($delta)"
            Change.BETTER -> "$value **(▲ $delta)**"
            Change.WORSE -> "$value **(▼ $delta)**"
            Change.DIFFERENT -> "$value **($delta)**"
        }
    }

    fun format(x: Double): String = FigureFormat.format(x)
}
