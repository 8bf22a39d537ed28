package serverbench.metrics

import serverbench.client.ClientReport
import serverbench.fixture.CpuBudget

/**
 * What one iteration measured: the load client's figures and the JVM's resource use; the seconds the trial warmed up
 * for (-1: no steady-state warmup); on the last measured iteration of a fork, the run-level steadiness verdict
 * ([Steadiness.judge]; null on every other iteration).
 */
class IterationReport(
    val client: ClientReport,
    val resources: ResourceReport?,
    val warmupSeconds: Double = -1.0,
    val lastMeasurement: Boolean = false,
    val steadiness: Steadiness.Verdict? = null,
    /** With `-p cpus` or `-p cpuset`: the budget and the server group's CFS accounting over the iteration. */
    val budget: BudgetReport? = null,
    /** A family's own figures for the iteration (the database family's pool wait). */
    val extra: List<Figure> = emptyList(),
) {
    /** The [Guards]' verdicts, computed once for the console warning (benchmark) and the JSON flags (profiler). */
    val guards: Map<String, String?> by lazy { Guards.check(this) }
}

/**
 * The server's CPU budget in an iteration: CPUs of quota (null: cores pinned only) and the CFS counters' deltas; and
 * the load client's own quota (`-Dserverbench.clientCpus`), null without one.
 */
class BudgetReport(val cpus: Double?, val throttling: CpuBudget.Throttling?, val clientCpus: Double? = null)

/** One figure a family adds to an iteration's results, folded as its [metric] says. */
class Figure(val metric: MetricSpec, val value: Double)
