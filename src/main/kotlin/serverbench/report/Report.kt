package serverbench.report

import serverbench.metrics.MetricCatalogue
import serverbench.params.ParamNames
import java.io.File

/**
 * Turns JMH JSON into the markdown page a pull-request reviewer reads: what the figures mean, the findings, then per
 * workload family one [ResultTable] per CPU placement, its top frames and charts; with a baseline, the change of every
 * figure, marked only where [Significance] says it is beyond both runs' noise.
 */
object Report {
    /**
     * What the page links to: family -> its charts; run key -> its latency-over-time chart ([LatencyTimeline]); the
     * capacity searches' charts ([CapacityChart]); a row's flamegraphs (the call makes a differential one).
     */
    class Links(
        val charts: Map<String, List<String>> = emptyMap(),
        val timelines: Map<String, String> = emptyMap(),
        val capacity: List<String> = emptyList(),
        val flamegraphs: (BenchmarkResult) -> List<String> = { emptyList() },
        /** The suite's findings measured live ([LiveFindingsReport]), or "". */
        val live: String = "",
    )

    fun markdown(
        head: List<BenchmarkResult>,
        headName: String,
        base: List<BenchmarkResult>?,
        baseName: String?,
        links: Links = Links(),
    ): String {
        val out = StringBuilder()
        out.append("# serverbench results: $headName")
        if (base != null) out.append(" vs baseline $baseName")
        out.append("\n\n")
        out.append(legend(head, withBaseline = base != null))
        out.append("\n")
        if (base != null) BaselinePairs.clientThreads(head, base)?.let { out.append("\n$it\n") }
        // Not against a baseline: that report asks what a change did, and verdicts on the head alone would read as its.
        if (base == null) out.append(links.live).append(Findings.markdown(head, live = links.live.isNotEmpty()))
        out.append(CapacityReport.markdown(head, links.capacity))
        val baseByKey = base?.associateBy { it.key } ?: emptyMap()
        for ((family, all) in head.groupBy { it.family }.toSortedMap()) {
            out.append("\n## $family\n")
            familyTables(all, baseByKey, base != null, links, out)
            out.append(TopFrames.markdown(all))
            links.charts[family]?.forEach { out.append("\n![${File(it).nameWithoutExtension}]($it)\n") }
        }
        if (base != null) out.append(BaselinePairs.gone(head, base))
        return out.toString()
    }

    /** A family's tables: budgeted and unbudgeted servers answer different questions, so never in one table. */
    private fun familyTables(
        all: List<BenchmarkResult>,
        baseByKey: Map<String, BenchmarkResult>,
        withBaseline: Boolean,
        links: Links,
        out: StringBuilder,
    ) {
        val placements = all.groupBy { placement(it) }.toSortedMap(compareBy({ it != UNBUDGETED }, { it }))
        for ((placement, runs) in placements) {
            if (placements.size > 1 || placement != UNBUDGETED) {
                val under = if (placement == UNBUDGETED) "without a CPU budget" else "under $placement"
                out.append("\n### Server $under\n")
            }
            ResultTable(runs, baseByKey, withBaseline, links.flamegraphs, links.timelines).appendTo(out)
        }
    }

    /** The paragraph under the title: what the loop, req/s and ± mean, and what only some runs need said. */
    private fun legend(head: List<BenchmarkResult>, withBaseline: Boolean): String {
        val out = StringBuilder()
        out.append(
            "Closed-loop figures (each connection waits for its answer before the next request), except rows with a " +
                "`rate` above 0: open loop, requests sent on a fixed schedule, where p50/p99 run from each request's " +
                "scheduled send (corrected for coordinated omission) and \"uncorrected p99\" from its actual send. ",
        )
        out.append("req/s counts successful, validated responses only; ± is JMH's 99.9 % interval.")
        if (head.any { Capacity.objective(it) != null }) {
            out.append(
                " Rows with an `objective` are capacity searches (the Capacity section): their measured iterations " +
                    "ran open loop at the rate the search found (the lowest it tried where none met the objective).",
            )
        }
        if (head.any { it.remote }) out.append(targets(head.filter { it.remote }))
        if (head.any { BenchmarkResult.ENGINE in it.params }) out.append(engines(head))
        if (withBaseline) {
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
        return out.toString()
    }

    /**
     * Where a target's figures were measured; a target that reports nothing of its process has no server-side
     * figures at all (its cells stay empty, never zeros or the client's).
     */
    private fun targets(remote: List<BenchmarkResult>): String {
        val blind = remote.count { MetricCatalogue.SERVER_CPU.name !in it.secondary }
        val where =
            " Runs against a server on its own host (`-Dserverbench.target`): latency, req/s and the client's " +
                "CPU were measured in the benchmark's JVM"
        val measured = "; the server's CPU, heap, threads and throttling in that server's process (over " +
            "scripts/serve's admin endpoint, or the service's Actuator)"
        val which = if (blind == remote.size) "The target" else "In $blind of those runs, the target"
        val none = " $which said nothing of its process (no scripts/serve admin endpoint, no Actuator metrics): its " +
            "server cores, CPU per request, heap and threads are absent, not zero."
        return where + (if (blind < remote.size) measured else "") + "." + (if (blind > 0) none else "")
    }

    /** What the `engine` column means, where a page has rows of other load engines. */
    private fun engines(head: List<BenchmarkResult>): String {
        val hyperfoilTomcat = head.any { it.engine.startsWith("hyperfoil") && it.params[ParamNames.SERVER] == "tomcat" }
        val keepAlive = if (hyperfoilTomcat) {
            "; its Tomcat rows with unlimited keep-alive requests, as Hyperfoil 0.25.2 ignores `Connection: close`"
        } else {
            ""
        }
        return " The `engine` column says which load engine measured a row: `serverbench` (the harness's client), " +
            "`hyperfoil` (`scripts/hyperfoil`: the same workload on Hyperfoil 0.25.2 in-VM against " +
            "`scripts/serve` on this machine) or `hyperfoil-agents` (the same file on a Hyperfoil " +
            "controller's agents, imported); Hyperfoil's rows after a fixed warmup, latency from its " +
            "histogram of 2 significant digits$keepAlive)."
    }

    private const val UNBUDGETED = "unlimited"

    /** "cpus=1", "cpus=0.5, cpuset=1" or [UNBUDGETED]. */
    private fun placement(run: BenchmarkResult): String = run.budget.ifEmpty { UNBUDGETED }
}
