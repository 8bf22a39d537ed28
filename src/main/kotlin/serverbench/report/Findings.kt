package serverbench.report

import serverbench.metrics.MetricCatalogue
import serverbench.params.CpuParams
import serverbench.params.Knobs
import serverbench.params.ParamNames as N

/**
 * The answer a report opens with, computed from the run: per family and parameter point, which variant on which
 * stack served the most req/s and which had the lowest p99, each against the runner-up, and whether the lead is larger
 * than the noise: the rule the baseline marks use ([Significance]: at the 99.9 % level) on intervals widened by
 * the between-fork allowance ([ForkAllowance]), as a row is one fork. A p99 lead
 * whose per-iteration ranges are apart at a weaker level says so with its p rather than "beyond noise". The conditions
 * come first: a verdict holds only for the loop, CPU budget and JDK it was measured under.
 */
object Findings {
    /** Parameters that say how a run was measured rather than what: told as conditions, not in a group's label. */
    private val CONDITIONS = setOf(SERVER, N.CONCURRENCY, N.RATE, N.CPUS, N.CPUSET)

    /** A family of handlers that do no work: what it serves is the most any other family could. */
    private const val CEILING_FAMILY = "Noop"

    private const val SERVER = N.SERVER
    private val P99 = MetricCatalogue.P99.name

    /** One family at one parameter point; its candidates are its rows, one per variant and server. */
    private class Group(val family: String, val params: Map<String, String>, val runs: List<BenchmarkResult>) {
        val loop = loop(runs.first())
        val budget = runs.first().budget
        val jdk = runs.map { it.jdkVersion }.filter { it.isNotEmpty() }.distinct().joinToString("/")
    }

    /**
     * The Findings section (a heading, the conditions, a line or two per group), or "" when no run was given. After
     * [live] findings it says which to believe where the two disagree: a newcomer read both and could not tell.
     */
    fun markdown(runs: List<BenchmarkResult>, live: Boolean = false): String {
        if (runs.isEmpty()) return ""
        val groups = groups(runs)
        val shared = Shared(groups)
        val heading = if (live) "Findings of the rows, fork by fork" else "Findings"
        val out = StringBuilder("\n## $heading\n\n")
        if (live) {
            out.append(
                "These rows ran one fork after another, so the machine's drift over minutes lies between them " +
                    "too: where a line here and the live findings above disagree, the live ones hold (both stacks " +
                    "measured in the same minutes). ",
            )
        }
        out.append("Conditions: ${conditions(groups, runs, shared).joinToString("; ")}. ")
        out.append(ForkAllowance.RULE).append("\n\n")
        for ((family, inFamily) in groups.groupBy { it.family }) familyLines(family, inFamily, shared, out)
        return out.toString()
    }

    /** Rows grouped by family and parameter point, in the report's order. */
    private fun groups(runs: List<BenchmarkResult>): List<Group> = runs
        // Another engine's row of the same workload (scripts/hyperfoil) is a candidate of the same group; unset knobs
        // (a Tomcat knob is n/a on Netty, `default` on Tomcat) do not split a parameter point.
        .groupBy { r ->
            r.family to (r.params - SERVER - BenchmarkResult.ENGINE).filterNot { Knobs.unset(it.key, it.value) }
                .toSortedMap()
        }
        .map { (key, rows) -> Group(key.first, key.second, rows) }
        .sortedWith(
            compareBy<Group> { it.family }
                .thenComparator { a, b -> compareParams((a.params.keys + b.params.keys).sorted(), a.params, b.params) },
        )

    /** Which conditions every group shares: those are said once, the others in each group's label. */
    private class Shared(groups: List<Group>) {
        val loop = groups.map { it.loop }.distinct().size == 1
        val budget = groups.map { it.budget }.distinct().size == 1
        val jdk = groups.map { it.jdk }.distinct().size == 1
    }

    /** The conditions line: the loop, where the client ran against the server's budget, the JDK, TLS. */
    private fun conditions(groups: List<Group>, runs: List<BenchmarkResult>, shared: Shared): List<String> {
        val top = mutableListOf<String>()
        if (shared.loop) top += groups.first().loop
        val budget = groups.first().budget
        val remote = runs.count { it.remote }
        top += when {
            remote > 0 && runs.all { it.engine == BenchmarkResult.HARNESS } -> targets(remote, runs.size)

            !shared.budget -> "the load client in the same JVM as the server, never under its CPU budget"

            budget.isEmpty() && runs.any { it.engine != BenchmarkResult.HARNESS } ->
                "no CPU budget; the load client: ${clients(runs)}"

            budget.isEmpty() -> "no CPU budget: the load client runs in the same JVM on the same cores as the server"

            budget.contains(N.CPUSET) ->
                "server under a CPU budget ($budget), the load client in the same JVM on the other cores"

            else -> "server under a CPU budget ($budget), the load client in the same JVM outside it"
        }
        clientQuota(runs)?.let { top += it }
        if (shared.jdk && groups.first().jdk.isNotEmpty()) top += "JDK ${groups.first().jdk}"
        TlsCondition.of(runs)?.let { top += it }
        return top
    }

    /** The load client's own quota (`-Dserverbench.clientCpus`) when any row had one: a smaller load generator. */
    private fun clientQuota(runs: List<BenchmarkResult>): String? {
        val quotas = runs.filter { it.engine == BenchmarkResult.HARNESS }.map { it.clientCpus }.distinct()
        if (quotas.all { it.isEmpty() }) return null
        val flag = "-D${CpuParams.CLIENT_CPUS_PROPERTY}"
        quotas.singleOrNull()?.let { return "the load client under its own CPU quota of $it cores ($flag)" }
        return "the load client's own CPU quota ($flag) differs between rows (cores: " +
            quotas.joinToString(", ") { it.ifEmpty { "none" } } + ")"
    }

    /** A family's lines: one or two per parameter point, or one saying there was nothing to compare. */
    private fun familyLines(family: String, inFamily: List<Group>, shared: Shared, out: StringBuilder) {
        val candidates = inFamily.flatMap { g -> g.runs.map { Leads.name(it) } }.distinct()
        if (inFamily.size > 1 && candidates.size == 1) {
            out.append(
                "- **$family**: only ${candidates.single()} ran (${inFamily.size} parameter points), " +
                    "nothing to compare it with.\n",
            )
            return
        }
        val labelled = inFamily.flatMap { it.params.keys }.distinct()
            .filter { it !in CONDITIONS && inFamily.map { g -> g.params[it] }.distinct().size > 1 }
        for (group in inFamily) {
            val differing = listOfNotNull(
                group.loop.takeUnless { shared.loop },
                group.budget.ifEmpty { "no CPU budget" }.takeUnless { shared.budget },
                group.jdk.takeUnless { shared.jdk || it.isEmpty() }?.let { "JDK $it" },
            )
            // A parameter added later is absent from rows at its old meaning: they show that value, not "null".
            val label = "**$family**" +
                labelled.joinToString("") { " $it=${group.params[it] ?: Results.absentAs(it) ?: "–"}" } +
                (if (differing.isEmpty()) "" else " (${differing.joinToString("; ")})")
            // A capacity search's rows are compared by what they served within the objective, by its own rule.
            val groupLines = CapacityVerdicts.lines(label, group.runs) ?: lines(label, group.runs)
            groupLines.forEach { out.append(it).append('\n') }
        }
    }

    /** The group's line, and a second one for the stacks side by side and the rows that need a word. */
    private fun lines(label: String, runs: List<BenchmarkResult>): List<String> {
        val flags = RowFlags.of(runs, Leads::name)
        if (runs.size == 1) {
            val run = runs.single()
            val ceiling = if (run.family == CEILING_FAMILY) " (no work per request: the ceiling)" else ""
            return listOf(
                "- $label: only **${Leads.name(run)}** ran: ${Leads.figures(run)}$ceiling" +
                    flags.joinToString("") { "; $it" } + ".",
            )
        }
        // Only judged rows are ranked; the others are named with why in the second line ([RowFlags]).
        val steady = runs.filter { RowFlags.judged(it) && it.primary.score.isFinite() }
        val first = when (steady.size) {
            0 -> "- $label: no row was steady without errors or fired guards, nothing can be compared."

            1 -> "- $label: only **${Leads.name(steady.single())}** was steady without errors or fired guards: " +
                "${Leads.figures(steady.single())}."

            else ->
                "- $label: " + listOfNotNull(Leads.lead(steady, BenchmarkResult.SCORE), Leads.lead(steady, P99))
                    .joinToString("; ") + "."
        }
        val second = StackPairs.lines(steady, runs.size) + flags
        if (second.isEmpty()) return listOf(first)
        return listOf(first, "  " + second.joinToString(" ") { it.replaceFirstChar { c -> c.uppercase() } + "." })
    }

    /** Runs against a target ([remote] of [all]): its server ran in a process of its own, whatever its cores. */
    private fun targets(remote: Int, all: Int): String = if (remote == all) {
        "the server in a process of its own (-Dserverbench.target), the load client in the benchmark's JVM"
    } else {
        "$remote of $all runs against a server in a process of its own (-Dserverbench.target), the load client in " +
            "the benchmark's JVM; the others with the load client in the server's JVM"
    }

    /** Where each engine's load client ran, for rows of several engines (scripts/hyperfoil's beside the harness's). */
    private fun clients(runs: List<BenchmarkResult>): String = listOfNotNull(
        runs.filter { it.engine == BenchmarkResult.HARNESS }.takeIf { it.isNotEmpty() }?.let { harness ->
            if (harness.all { it.remote }) {
                "the harness's in a JVM of its own (-Dserverbench.target)"
            } else {
                "the harness's in the server's JVM"
            }
        },
        "Hyperfoil's in a JVM of its own".takeIf { runs.any { it.engine == "hyperfoil" } },
        "Hyperfoil's agents on their hosts".takeIf { runs.any { it.engine == "hyperfoil-agents" } },
    ).joinToString(", ")

    /** "closed loop, 64 connections" or "open loop at 2000 req/s (at most 64 connections)". */
    private fun loop(run: BenchmarkResult): String {
        Capacity.loop(run)?.let { return it }
        val connections = run.params[N.CONCURRENCY]
        return if (run.openLoop) {
            "open loop at ${run.params[N.RATE]} req/s" +
                (connections?.let { " (at most $it connections)" } ?: "")
        } else {
            "closed loop" + (connections?.let { ", $it connections" } ?: "")
        }
    }
}
