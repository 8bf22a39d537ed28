package serverbench.report

import serverbench.metrics.CapacitySearch.Kind
import java.util.Locale
import serverbench.params.ParamNames as N

/**
 * A finding's lines for a group of capacity searches ([Capacity]): per pair of stacks with the variant held fixed,
 * which one serves more within the objective, by how much, and whether that is beyond the search's own precision.
 *
 * The test behind "beyond": a capacity is known only to lie between the rate that met the objective and the rate that
 * missed it, so a lead is claimed only where the two brackets do not overlap, the leader having met a rate above the
 * one at which the other missed (both ends measured), in every fork where there are several; from one search a side
 * the line says that a rerun is not covered. Closer than that the search cannot order them, whatever the figures
 * say. The percent compares the two met rates. Rows whose search did not end in a bracket or a lower bound (the load
 * generator's limit, inconclusive, not met) are named with why and never ranked.
 */
internal object CapacityVerdicts {
    private val COMPARABLE = setOf(Kind.BRACKETED, Kind.LOWER_BOUND)
    private const val TEST = "beyond the search's brackets"
    private const val NO_VERDICT = "within the search's precision: no verdict"

    /** The group's lines, or null when none of its rows is a capacity search (its ordinary findings apply). */
    fun lines(label: String, runs: List<BenchmarkResult>): List<String>? {
        val objective = runs.firstNotNullOfOrNull { Capacity.objective(it) } ?: return null
        val searched = runs.map { it to Capacity.of(it) }
        val comparable = searched.mapNotNull { it.second }.filter { isComparable(it) }
        val verdicts = pairs(comparable).map { (a, b) -> verdict(a, b) }
        val head = "- $label, capacity within $objective: "
        val first = when {
            verdicts.isNotEmpty() -> head + verdicts.joinToString("; ") + "."

            comparable.size == 1 -> head + "only **${Leads.name(comparable.single().run)}** " +
                (if (runs.size == 1) "was searched" else "has a capacity to compare") +
                ": ${comparable.single().summary()}."

            comparable.isEmpty() -> head + "no search ended in a capacity to compare."

            else ->
                head + "no two stacks searched the same variant: " +
                    comparable.joinToString("; ") { "**${Leads.name(it.run)}** ${it.summary()}" } + "."
        }
        val left = searched.filter { (_, c) -> c == null || !isComparable(c) }.sortedBy { Leads.name(it.first) }
        if (left.isEmpty()) return listOf(first)
        val named = left.joinToString("; ") { (r, c) -> "${Leads.name(r)} (${why(c)})" }
        return listOf(first, "  Not compared: $named.")
    }

    /**
     * Both sides searched in two forks or more, so the lead holds for every fork ([Capacity.met], [Capacity.missed]).
     * One search a side says nothing of a rerun: on this machine one configuration searched twice came out 111 and
     * 1,737 req/s (docs/capacity.md).
     */
    private fun repeated(a: Capacity, b: Capacity) = a.searches.size > 1 && b.searches.size > 1

    private const val ONE_SEARCH =
        "; one search a side, which says nothing of a rerun (-f 3: the lead must then hold for every fork)"

    private fun isComparable(c: Capacity) =
        c.kind in COMPARABLE && c.met != null && (c.kind == Kind.LOWER_BOUND || c.missed != null)

    /** Pairs of stacks that searched the same variant (and engine), each pair once, by server name. */
    private fun pairs(comparable: List<Capacity>): List<Pair<Capacity, Capacity>> = comparable
        .groupBy { it.run.variant to it.run.engine }.toSortedMap(compareBy({ it.first }, { it.second })).values
        .flatMap { same ->
            val byServer = same.sortedBy { it.run.params[N.SERVER] }
            byServer.flatMapIndexed { i, a ->
                byServer.drop(i + 1).filter { it.run.params[N.SERVER] != a.run.params[N.SERVER] }.map { a to it }
            }
        }

    /**
     * "**netty direct** serves 31 % more than tomcat direct (1,200 vs 916 req/s), beyond the search's brackets: netty
     * met 1,200 req/s, above the 944 at which tomcat missed", or why the two cannot be told apart.
     */
    fun verdict(a: Capacity, b: Capacity): String {
        val (lead, other) = if (a.met!! >= b.met!!) a to b else b to a
        val (leadMet, otherMet) = lead.met!! to other.met!!
        val otherMissed = other.missed
        return when {
            other.kind == Kind.LOWER_BOUND && lead.kind == Kind.LOWER_BOUND ->
                "${both(lead, other)}: both lower bounds, neither missed the objective, so no verdict"

            // The other may serve more than its lower bound: nothing says by how much.
            other.kind == Kind.LOWER_BOUND ->
                "${both(lead, other)}: ${server(other)}'s is a lower bound that may be higher, so no verdict"

            otherMissed != null && leadMet > otherMissed -> {
                val atLeast = if (lead.kind == Kind.LOWER_BOUND) "at least " else ""
                val leadFigure = (if (lead.kind == Kind.LOWER_BOUND) "≥ " else "") + Capacity.rate(leadMet)
                "**${Leads.name(lead.run)}** serves $atLeast${more(leadMet, otherMet)} " +
                    "${Leads.name(other.run)} ($leadFigure vs ${Capacity.rate(otherMet)} req/s), $TEST: " +
                    "${server(lead)} met ${Capacity.rate(leadMet)} req/s, above the ${Capacity.rate(otherMissed)} " +
                    "at which ${server(other)} missed" + (if (repeated(lead, other)) "" else ONE_SEARCH)
            }

            lead.kind == Kind.LOWER_BOUND ->
                "${both(lead, other)}: the lower bound is not above ${server(other)}'s missed rate, $NO_VERDICT"

            else -> "${both(lead, other)}: the brackets overlap, $NO_VERDICT"
        }
    }

    /** "netty direct 1,200–1,236 and tomcat direct ≥ 1,000 req/s". */
    private fun both(a: Capacity, b: Capacity) =
        "${Leads.name(a.run)} ${range(a)} and ${Leads.name(b.run)} ${range(b)} req/s"

    private fun range(c: Capacity): String = when (c.kind) {
        Kind.LOWER_BOUND -> "≥ ${Capacity.rate(c.met!!)}"
        else -> "${Capacity.rate(c.met!!)}–${c.missed?.let { Capacity.rate(it) } ?: "?"}"
    }

    private fun server(c: Capacity) = c.run.params[N.SERVER] ?: Leads.name(c.run)

    /** "31 % more than", "4.2 % more than", "2.4× as much as": the lead's met rate over the other's. */
    fun more(lead: Double, other: Double): String {
        val ratio = lead / other
        if (ratio >= 2) {
            return String.format(Locale.ROOT, if (ratio < 10) "%.1f× as much as" else "%.0f× as much as", ratio)
        }
        val pct = 100 * (ratio - 1)
        return String.format(Locale.ROOT, if (pct < 10) "%.1f %% more than" else "%.0f %% more than", pct)
    }

    /** Why a row is not ranked, in a few words. */
    private fun why(c: Capacity?): String = if (c == null) "no capacity result in the result file" else reason(c)

    private fun reason(c: Capacity): String = when (c.kind) {
        null -> "${c.label}: an outcome this report does not know"

        Kind.CLIENT_SATURATED ->
            "limited by the load generator" + (c.clientLimitAt?.let { " at ${Capacity.rate(it)} req/s" } ?: "") +
                ": the figure is the client's, not the server's"

        Kind.INCONCLUSIVE ->
            "inconclusive: a rate that met the objective missed it when confirmed, the steps do not order"

        Kind.NOT_MET -> "not met: missed the objective at every rate tried"

        // A bracket or lower bound without its figures: a result file this report does not understand.
        Kind.BRACKETED, Kind.LOWER_BOUND -> "${c.label} without its rates in the result file"
    }
}
