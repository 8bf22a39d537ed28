package serverbench.report

import serverbench.metrics.Steadiness
import serverbench.metrics.SteadinessAdvice
import java.util.Locale

/** The caveats of a finding's rows ([Findings]). */
internal object RowFlags {
    private val NOT_STEADY = Run.NOT_STEADY.removePrefix("warning.")

    /** What a reader must know before trusting a row: not steady, failures, the guards that fired. */
    fun of(runs: List<Run>, name: (Run) -> String): List<String> {
        val out = mutableListOf<String>()
        val unsteady = runs.filter { it.notSteady }
        if (unsteady.isNotEmpty() && runs.size > 1) {
            out += "not steady, so not compared: ${unsteady.joinToString(", ") { "${name(it)} (${kind(it)})" }}"
        } else if (unsteady.isNotEmpty()) {
            out += "not steady (${kind(unsteady.single())})"
        }
        val unjudged = runs.filter { it.steadinessNotJudged }
        if (unjudged.isNotEmpty()) {
            val which = if (unjudged.size == runs.size) "" else ": " + unjudged.joinToString(", ") { name(it) }
            out += "too few iterations to judge steadiness (-i ${Steadiness.MIN_ITERATIONS} or more)$which"
        }
        val failed = runs.filter { (it.metric("errors")?.score ?: 0.0) > 0 }
        if (failed.isNotEmpty()) {
            out += "errors: " + failed.joinToString(", ") {
                name(it) + String.format(Locale.ROOT, " %.0f", it.metric("errors")!!.score)
            }
        }
        val warned = runs.filter { r -> r.warnings.any { it != NOT_STEADY } }
        if (warned.isNotEmpty()) {
            out += "guards fired: " + warned.joinToString(", ") { r ->
                "${name(r)} (${r.warnings.filter { it != NOT_STEADY }.joinToString(", ")})"
            }
        }
        return out
    }

    /** Still warming (a trend) or noisy (a wide interval), from `warning.notSteady` ([Steadiness.NOISY_FLAG]). */
    private fun kind(run: Run): String =
        if (run.secondary[Run.NOT_STEADY]?.score == Steadiness.NOISY_FLAG) "noisy" else "still warming"

    /**
     * Under a table with rows not steady: what that means, then per kind the rows and what to do, with the command
     * ([SteadinessAdvice]; the suite's own when `scripts/bench` ran the report).
     */
    fun notSteadyLegend(runs: List<Run>, name: (Run) -> String): String {
        val unsteady = runs.filter { it.notSteady }
        val kinds = unsteady.groupBy { kind(it) }.toSortedMap(compareByDescending { it })
        val warmed = unsteady.maxOfOrNull { it.secondary["warmup.seconds"]?.score ?: 0.0 } ?: 0.0
        return "(not steady): the measured iterations were not steady (`${Run.NOT_STEADY}`): do not compare such a " +
            "row, with other rows or with a baseline. No change on it, or against a baseline row that was not " +
            "steady, is marked." + kinds.entries.joinToString("") { (kind, rows) ->
                val what = if (kind == "noisy") "the iterations scatter (a wide interval, no trend)" else "a trend"
                val advice = SteadinessAdvice.of(rows.first().secondary.getValue(Run.NOT_STEADY).score, warmed)
                " ${kind.replaceFirstChar { it.uppercase() }}, $what: ${rows.joinToString(", ") { name(it) }}: $advice."
            }
    }
}
