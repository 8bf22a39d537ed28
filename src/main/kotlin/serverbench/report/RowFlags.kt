package serverbench.report

import serverbench.metrics.Steadiness
import java.util.Locale

/** The caveats of a finding's rows ([Findings]). */
internal object RowFlags {
    private val NOT_STEADY = Run.NOT_STEADY.removePrefix("warning.")

    /** What a reader must know before trusting a row: not steady, failures, the guards that fired. */
    fun of(runs: List<Run>, name: (Run) -> String): List<String> {
        val out = mutableListOf<String>()
        val unsteady = runs.filter { it.notSteady }
        if (unsteady.isNotEmpty() && runs.size > 1) {
            out += "not steady, so not compared: ${unsteady.joinToString(", ") { name(it) }}"
        } else if (unsteady.isNotEmpty()) {
            out += "not steady"
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
}
