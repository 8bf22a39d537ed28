package serverbench.report

import serverbench.metrics.Guards
import serverbench.metrics.MetricCatalogue
import serverbench.metrics.Steadiness
import serverbench.metrics.SteadinessAdvice
import java.util.Locale

/** The caveats of a finding's rows ([Findings]), and which rows may be ranked at all. */
internal object RowFlags {
    private const val NOT_STEADY = Guards.NOT_STEADY

    /**
     * A row the findings may rank: steady by the guard's verdict (not "not steady", nor too few iterations for one),
     * no failed request, no guard fired (a saturated client, Little's law off, unanswered or late requests: its
     * figures do not measure the server as labelled). A row without a verdict is no headline, however it leads.
     */
    fun judged(run: BenchmarkResult): Boolean = !run.notSteady && !run.steadinessNotJudged && errors(run) == 0.0 &&
        guards(run).isEmpty()

    private fun errors(run: BenchmarkResult): Double =
        run.metric(MetricCatalogue.ERRORS.name)?.score?.takeIf { it.isFinite() } ?: 0.0

    private fun guards(run: BenchmarkResult): List<String> = run.warnings.filter { it != NOT_STEADY }

    /** What a reader must know before trusting a row: not steady, failures, the guards that fired. */
    fun of(runs: List<BenchmarkResult>, name: (BenchmarkResult) -> String): List<String> {
        val out = mutableListOf<String>()
        val unsteady = runs.filter { it.notSteady }
        if (unsteady.isNotEmpty() && runs.size > 1) {
            out += "not steady, so not compared: ${unsteady.joinToString(", ") { "${name(it)} (${kind(it)})" }}"
        } else if (unsteady.isNotEmpty()) {
            out += "not steady (${kind(unsteady.single())})"
        }
        // With other rows, each reason says the row was left out of the ranking; a row alone is only described.
        val left = if (runs.size > 1) ", so not compared: " else ": "
        val unjudged = runs.filter { it.steadinessNotJudged }
        if (unjudged.isNotEmpty()) {
            val why = "too few iterations to judge steadiness (-i ${Steadiness.MIN_ITERATIONS} or more)"
            out += if (runs.size > 1) why + left + unjudged.joinToString(", ") { name(it) } else why
        }
        val failed = runs.filter { errors(it) > 0 }
        if (failed.isNotEmpty()) {
            out += "errors" + left + failed.joinToString(", ") {
                name(it) + String.format(Locale.ROOT, " %.0f", errors(it))
            }
        }
        val warned = runs.filter { guards(it).isNotEmpty() }
        if (warned.isNotEmpty()) {
            out += "guards fired" + left + warned.joinToString(", ") { r ->
                "${name(r)} (${guards(r).joinToString(", ")})"
            }
        }
        return out
    }

    /** Still warming (a trend) or noisy (a wide interval), from `warning.notSteady` ([Steadiness.NOISY_FLAG]). */
    private fun kind(run: BenchmarkResult): String =
        if (run.secondary[BenchmarkResult.NOT_STEADY]?.score == Steadiness.NOISY_FLAG) "noisy" else "still warming"

    /**
     * Under a table with rows not steady: what that means, then per kind the rows and what to do, with the command
     * ([SteadinessAdvice]; the suite's own when `scripts/bench` ran the report).
     */
    fun notSteadyLegend(runs: List<BenchmarkResult>, name: (BenchmarkResult) -> String): String {
        val unsteady = runs.filter { it.notSteady }
        val kinds = unsteady.groupBy { kind(it) }.toSortedMap(compareByDescending { it })
        val warmed = unsteady.maxOfOrNull { it.secondary[MetricCatalogue.WARMUP_SECONDS.name]?.score ?: 0.0 } ?: 0.0
        return "(not steady): the measured iterations were not steady (`${BenchmarkResult.NOT_STEADY}`): " +
            "do not compare such a row, with other rows or with a baseline. No change on it, or against a baseline " +
            "row that was not steady, is marked." + kinds.entries.joinToString("") { (kind, rows) ->
                val what = if (kind == "noisy") "the iterations scatter (a wide interval, no trend)" else "a trend"
                val advice = SteadinessAdvice.of(
                    rows.first().secondary.getValue(BenchmarkResult.NOT_STEADY).score,
                    warmed,
                )
                " ${kind.replaceFirstChar { it.uppercase() }}, $what: ${rows.joinToString(", ") { name(it) }}: $advice."
            }
    }
}
