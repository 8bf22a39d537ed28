package serverbench.report

import serverbench.metrics.FigureFormat
import serverbench.metrics.MetricCatalogue
import serverbench.metrics.MetricSpec
import serverbench.params.Knobs
import java.util.Locale
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

    /** The Findings section (a heading, the conditions, a line or two per group), or "" when no run was given. */
    fun markdown(runs: List<BenchmarkResult>): String {
        if (runs.isEmpty()) return ""
        // Unset knobs (a Tomcat knob is n/a on Netty, `default` on Tomcat) do not split a parameter point.
        val groups = runs
            // Another engine's row of the same workload (scripts/hyperfoil) is a candidate of the same group.
            .groupBy { r ->
                r.family to
                    (r.params - SERVER - BenchmarkResult.ENGINE).filterNot {
                        Knobs.unset(it.key, it.value)
                    }.toSortedMap()
            }
            .map { (key, rows) -> Group(key.first, key.second, rows) }
            .sortedWith(
                compareBy<Group> { it.family }
                    .thenComparator { a, b ->
                        compareParams((a.params.keys + b.params.keys).sorted(), a.params, b.params)
                    },
            )
        // A condition shared by every group is said once; one that differs is said in each group's label.
        val oneLoop = groups.map { it.loop }.distinct().size == 1
        val oneBudget = groups.map { it.budget }.distinct().size == 1
        val oneJdk = groups.map { it.jdk }.distinct().size == 1
        val top = mutableListOf<String>()
        if (oneLoop) top += groups.first().loop
        val budget = groups.first().budget
        top += when {
            !oneBudget -> "the load client in the same JVM as the server, never under its CPU budget"

            budget.isEmpty() && runs.any { it.engine != BenchmarkResult.HARNESS } ->
                "no CPU budget; the load client: ${clients(runs)}"

            budget.isEmpty() -> "no CPU budget: the load client runs in the same JVM on the same cores as the server"

            budget.contains(N.CPUSET) ->
                "server under a CPU budget ($budget), the load client in the same JVM on the other cores"

            else -> "server under a CPU budget ($budget), the load client in the same JVM outside it"
        }
        if (oneJdk && groups.first().jdk.isNotEmpty()) top += "JDK ${groups.first().jdk}"
        TlsCondition.of(runs)?.let { top += it }
        val out = StringBuilder("\n## Findings\n\n")
        out.append("Conditions: ${top.joinToString("; ")}. ")
        out.append(ForkAllowance.RULE).append("\n\n")
        for ((family, inFamily) in groups.groupBy { it.family }) {
            val candidates = inFamily.flatMap { g -> g.runs.map { name(it) } }.distinct()
            if (inFamily.size > 1 && candidates.size == 1) {
                out.append(
                    "- **$family**: only ${candidates.single()} ran (${inFamily.size} parameter points), " +
                        "nothing to compare it with.\n",
                )
                continue
            }
            val labelled = inFamily.flatMap { it.params.keys }.distinct()
                .filter { it !in CONDITIONS && inFamily.map { g -> g.params[it] }.distinct().size > 1 }
            for (group in inFamily) {
                val differing = listOfNotNull(
                    group.loop.takeUnless { oneLoop },
                    group.budget.ifEmpty { "no CPU budget" }.takeUnless { oneBudget },
                    group.jdk.takeUnless { oneJdk || it.isEmpty() }?.let { "JDK $it" },
                )
                // A parameter added later is absent from rows at its old meaning: they show that value, not "null".
                val label = "**$family**" +
                    labelled.joinToString("") { " $it=${group.params[it] ?: Results.absentAs(it) ?: "–"}" } +
                    (if (differing.isEmpty()) "" else " (${differing.joinToString("; ")})")
                lines(label, group.runs).forEach { out.append(it).append('\n') }
            }
        }
        return out.toString()
    }

    /** The group's line, and a second one for the stacks side by side and the rows that need a word. */
    private fun lines(label: String, runs: List<BenchmarkResult>): List<String> {
        val flags = RowFlags.of(runs, ::name)
        if (runs.size == 1) {
            val run = runs.single()
            val ceiling = if (run.family == CEILING_FAMILY) " (no work per request: the ceiling)" else ""
            return listOf(
                "- $label: only **${name(run)}** ran: ${figures(run)}$ceiling" +
                    flags.joinToString("") { "; $it" } + ".",
            )
        }
        // Only judged rows are ranked; the others are named with why in the second line ([RowFlags]).
        val steady = runs.filter { RowFlags.judged(it) && it.primary.score.isFinite() }
        val first = when (steady.size) {
            0 -> "- $label: no row was steady without errors or fired guards, nothing can be compared."

            1 -> "- $label: only **${name(steady.single())}** was steady without errors or fired guards: " +
                "${figures(steady.single())}."

            else ->
                "- $label: " +
                    listOfNotNull(lead(steady, BenchmarkResult.SCORE), lead(steady, P99)).joinToString("; ") +
                    "."
        }
        val second = stacks(steady, runs.size) + flags
        if (second.isEmpty()) return listOf(first)
        return listOf(first, "  " + second.joinToString(" ") { it.replaceFirstChar { c -> c.uppercase() } + "." })
    }

    /** The rows that have [metric], best first. */
    private fun ranked(runs: List<BenchmarkResult>, metric: String): List<BenchmarkResult> = runs
        .filter { it.metric(metric)?.score?.isFinite() == true }
        .sortedBy { it.metric(metric)!!.score.let { s -> if (higherBetter(metric)) -s else s } }

    /**
     * "most req/s **netty direct**: 9,800 vs 7,840 (tomcat direct), +25 %, beyond noise": the best row by [metric]
     * against the runner-up. Null when fewer than two rows have the figure.
     */
    private fun lead(runs: List<BenchmarkResult>, metric: String): String? {
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

    private fun higherBetter(metric: String) = MetricCatalogue.of(metric)?.better == MetricSpec.Better.HIGHER

    /** How far the best is ahead: "+25 %" or "3.1×" for req/s, "-17 %" or "3.1× lower" for a latency. */
    private fun relative(best: Double, next: Double, higherBetter: Boolean): String? {
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
    private enum class Noise { NO_INTERVAL, WITHIN, BEYOND, APART }

    /** Each row's interval widened by the between-fork allowance first ([ForkAllowance]). */
    private fun noise(metric: String, x: Metric, y: Metric): Noise {
        val (a, b) = ForkAllowance.widen(x) to ForkAllowance.widen(y)
        return when {
            a.error.isNaN() || b.error.isNaN() -> Noise.NO_INTERVAL
            Significance.of(metric, a, b) != Significance.Change.NONE -> Noise.BEYOND
            Significance.overlap(a, b) -> Noise.WITHIN
            else -> Noise.APART // percentile ranges apart, at a level weaker than the report's (or unknown)
        }
    }

    private fun noiseText(metric: String, a: Metric, b: Metric): String = when (noise(metric, a, b)) {
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

    /**
     * "same variant, netty vs tomcat: more req/s on tomcat (direct 17×), within noise (nonBlocking); ...": the stack
     * question with the variant held fixed, a lead named only where it is beyond noise; one such line per pair of
     * stacks (jetty vs netty, jetty vs tomcat, netty vs tomcat). Only where a group has more rows than the one pair
     * its first line already compares.
     */
    private fun stacks(steady: List<BenchmarkResult>, rows: Int): List<String> {
        val servers = steady.mapNotNull { it.params[SERVER] }.distinct().sorted()
        if (servers.size < 2 || rows <= 2) return emptyList()
        val variants = steady.groupBy { it.variant to it.engine }.toSortedMap(compareBy({ it.first }, { it.second }))
            .values
        return servers.flatMapIndexed { i, x -> servers.drop(i + 1).mapNotNull { y -> stackPair(variants, x, y) } }
    }

    private fun stackPair(variants: Collection<List<BenchmarkResult>>, x: String, y: String): String? {
        val pairs = variants.mapNotNull { v ->
            val a = v.find { it.params[SERVER] == x }
            val b = v.find { it.params[SERVER] == y }
            if (a != null && b != null) a to b else null
        }
        val parts = listOfNotNull(tally(pairs, BenchmarkResult.SCORE, "more req/s"), tally(pairs, P99, "lower p99"))
        if (parts.isEmpty()) return null
        return "same variant, $x vs $y: ${parts.joinToString("; ")}"
    }

    private fun tally(pairs: List<Pair<BenchmarkResult, BenchmarkResult>>, metric: String, what: String): String? {
        val higherBetter = higherBetter(metric)
        // Per variant: "on <the stack ahead>" where beyond noise, with by how much; else why no stack is named.
        val outcomes = pairs.mapNotNull { (a, b) ->
            val x = a.metric(metric)?.takeIf { it.score.isFinite() } ?: return@mapNotNull null
            val y = b.metric(metric)?.takeIf { it.score.isFinite() } ?: return@mapNotNull null
            val aAhead = (x.score >= y.score) == higherBetter
            when (noise(metric, x, y)) {
                Noise.BEYOND -> Outcome(
                    "on ${(if (aAhead) a else b).params[SERVER]}",
                    variant(a),
                    if (aAhead) relative(x.score, y.score, higherBetter) else relative(y.score, x.score, higherBetter),
                )

                Noise.APART -> Outcome(
                    if (Significance.apartP(x, y).isNaN()) APART_UNKNOWN else APART,
                    variant(a),
                    null,
                )

                Noise.WITHIN -> Outcome(WITHIN, variant(a), null)

                Noise.NO_INTERVAL -> Outcome(NO_INTERVAL, variant(a), null)
            }
        }
        if (outcomes.isEmpty()) return null
        val last = listOf(APART, APART_UNKNOWN, WITHIN, NO_INTERVAL)
        return "$what " + outcomes.groupBy { it.bucket }.entries
            .sortedWith(compareBy({ last.indexOf(it.key) }, { -it.value.size }, { it.key }))
            .joinToString(", ") { (bucket, items) ->
                // Up to three variants by name; more by count, as a long list would not fit the line.
                val which = if (items.size > 3) {
                    "${items.size} of ${outcomes.size} variants"
                } else {
                    items.joinToString(", ") { listOfNotNull(it.variant, it.by).joinToString(" ") }
                }
                "$bucket ($which)"
            }
    }

    private class Outcome(val bucket: String, val variant: String, val by: String?)

    private const val APART = "ranges apart at p > 0.1 %"
    private const val APART_UNKNOWN = "ranges apart, iterations unknown"
    private const val WITHIN = "within noise"
    private const val NO_INTERVAL = "no interval"

    private fun figures(run: BenchmarkResult): String = "${FigureFormat.format(run.primary.score)} req/s" +
        (run.metric(P99)?.takeIf { it.score.isFinite() }?.let { ", p99 ${FigureFormat.format(it.score)} ms" } ?: "")

    private fun name(run: BenchmarkResult): String = listOfNotNull(run.params[SERVER], variant(run)).joinToString(" ")

    /** "direct", or "direct on hyperfoil" for a row another load engine measured. */
    private fun variant(run: BenchmarkResult): String =
        run.variant + if (run.engine == BenchmarkResult.HARNESS) "" else " on ${run.engine}"

    /** Where each engine's load client ran, for rows of several engines (scripts/hyperfoil's beside the harness's). */
    private fun clients(runs: List<BenchmarkResult>): String = listOfNotNull(
        runs.filter { it.engine == BenchmarkResult.HARNESS }.takeIf { it.isNotEmpty() }?.let { harness ->
            if (harness.all { "server.remote" in it.secondary }) {
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
        val connections = run.params[N.CONCURRENCY]
        return if (run.openLoop) {
            "open loop at ${run.params[N.RATE]} req/s" +
                (connections?.let { " (at most $it connections)" } ?: "")
        } else {
            "closed loop" + (connections?.let { ", $it connections" } ?: "")
        }
    }
}
