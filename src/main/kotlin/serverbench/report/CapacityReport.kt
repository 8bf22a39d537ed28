package serverbench.report

import serverbench.params.Knobs
import java.io.File
import serverbench.params.ParamNames as N

/**
 * The report's Capacity section, where any row is a capacity search (`-p objective`): one row per search with its
 * objective, its kind and the figures that kind allows ([Capacity.cell]), the steps it took and why it ended there;
 * then the charts of latency by offered rate ([CapacityChart]).
 */
internal object CapacityReport {
    /** Parameters a search's row names elsewhere in its table, or that say nothing about it (the rate it searched). */
    private val OWN_COLUMNS = setOf(N.SERVER, N.OBJECTIVE, N.RATE, BenchmarkResult.ENGINE)

    private const val LEGEND =
        "A capacity search (`-p objective`) runs fixed-rate open-loop steps on the warm server, a ladder (×2) up to " +
            "the first rate that misses the objective, then bisection, then the rate found once more to confirm it; " +
            "a step counts only where the load generator kept its schedule. Its figure is never a number alone: " +
            "**bracketed**: met at the capacity (twice) and missed at the missed-at rate, the true capacity between " +
            "the two; **lower bound**: met at the highest rate tried (the step limit or the highest rate allowed " +
            "came first), at least that; **limited by the load generator**: a step's schedule was more than the " +
            "client could send, so the figure is the client's, not the server's; **inconclusive**: a rate that met " +
            "the objective missed it when confirmed, so the steps do not order; **not met**: missed at every rate " +
            "tried."

    /** The section, or "" when no row is a capacity search. [charts]: the charts' paths, as the markdown links them. */
    fun markdown(runs: List<BenchmarkResult>, charts: List<String> = emptyList()): String {
        val searched = runs.mapNotNull { Capacity.of(it) }
        if (searched.isEmpty()) return ""
        val varying = Knobs.varying(searched.map { it.run.params }).filter { it !in OWN_COLUMNS }
        val out = StringBuilder("\n## Capacity\n\n").append(LEGEND).append("\n\n")
        val headers = listOf(
            "benchmark",
            "server",
            "objective",
            "kind",
            "capacity req/s",
            "missed at req/s",
            "steps",
            "why",
        )
        out.append(headers.joinToString(" | ", "| ", " |\n"))
        out.append(headers.joinToString(" | ", "| ", " |\n") { if (it.endsWith("req/s")) "---:" else "---" })
        val sorted = searched.sortedWith(
            compareBy<Capacity>({ it.run.family }, { it.run.variant })
                .thenComparator { a, b -> compareParams(varying, a.run.params, b.run.params) }
                .thenBy { it.run.params[N.SERVER] },
        )
        for (c in sorted) out.append(cells(c, varying).joinToString(" | ", "| ", " |\n"))
        charts.forEach { out.append("\n![${File(it).nameWithoutExtension}]($it)\n") }
        return out.toString()
    }

    /** One search's row; a `|` in its why would end the cell, so it is escaped. */
    fun cells(c: Capacity, varying: List<String> = emptyList()): List<String> {
        val run = c.run
        val benchmark = (
            listOf("${run.family}.${Leads.variant(run)}") +
                varying.mapNotNull { p ->
                    // A knob of another stack (`tomcatMaxThreads=n/a` on Netty) says nothing about this row.
                    (run.params[p] ?: Results.absentAs(p))?.takeUnless { Knobs.unset(p, it) }?.let { "$p=$it" }
                }
            ).joinToString(" ")
        val stepSeconds = c.searches.mapNotNull { it.stepSeconds }.distinct().singleOrNull()
        val steps = c.stepCount?.let { n -> "$n" + (stepSeconds?.let { " × $it s" } ?: "") } ?: "–"
        return listOf(
            benchmark,
            run.params[N.SERVER] ?: "",
            c.objective,
            c.label,
            c.cell(),
            c.missedCell(),
            steps,
            c.why.ifEmpty { "–" }.replace("|", "\\|"),
        )
    }
}
