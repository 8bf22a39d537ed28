package serverbench.benchmarks

import serverbench.client.LoadFailure
import serverbench.client.LoadGroup
import serverbench.metrics.BudgetReport
import serverbench.metrics.CapacityStep
import serverbench.metrics.Guards
import serverbench.metrics.IterationReport
import serverbench.metrics.ResourceReport
import serverbench.params.Objective
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * One step of a capacity search (docs/capacity.md): a fixed-rate open-loop window of [length] on a load group of its
 * own ([open]), its late answers waited for, judged by [CapacityStep.judge]; then the group drained and closed, so no
 * request of one step lands in the next. One rule for the fork's search ([CapacityRun]) and the live one
 * (LiveCapacity, in the live engine): both must call a step met or missed alike.
 */
class OpenLoopStep(
    private val objective: Objective,
    /** The server's figures around each step (its CPU, the machine's: the clientSaturated guard reads them). */
    private val meter: StepMeter,
    private val open: (Double) -> LoadGroup,
    val length: Duration,
) {
    /** What runs around each step's window, as around a measured iteration; a family's own checks included. */
    interface StepMeter {
        fun begin(group: LoadGroup)

        fun end(group: LoadGroup): Pair<ResourceReport?, BudgetReport?>

        /** None: a server in another process, whose client's own CPU (in its report) is what the guard reads. */
        object None : StepMeter {
            override fun begin(group: LoadGroup) {}

            override fun end(group: LoadGroup): Pair<ResourceReport?, BudgetReport?> = null to null
        }
    }

    /** Late answers count up to this long after the window (longer than the objective, so a miss shows as one). */
    private val drainWait = Duration.ofMillis(maxOf(1_000L, 2 * objective.limitMillis.toLong()))

    /** One fixed-rate window on a new group, its late answers waited for, then judged. */
    fun run(rate: Double): CapacityStep {
        val group = open(rate)
        try {
            return measured(group, rate)
        } catch (e: LoadFailure) {
            // Over the failure tolerance, or nothing answered: the server did not serve this rate.
            return CapacityStep(
                rate, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 1, 0,
                CapacityStep.Verdict.MISSED, "the load failed: ${e.message}",
            )
        } finally {
            // The server's backlog must be gone before the next step starts.
            runCatching { group.drain(QUIET_WAIT) }
            group.close()
        }
    }

    private fun measured(group: LoadGroup, rate: Double): CapacityStep {
        group.beginIteration(length)
        meter.begin(group)
        val start = System.nanoTime()
        val nanos = length.toNanos()
        do group.next() while (System.nanoTime() - start < nanos)
        val waited = System.nanoTime()
        val unanswered = group.drain(drainWait)
        val waitMicros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - waited)
        val report = group.endIteration()
        val (resources, budget) = meter.end(group)
        // The client at its own limit voids a step; a busy machine alone does not: client and server share the cores
        // here whatever the rate, and a step that misses because of it says so in the server's figures.
        val saturated = Guards.clientBottleneck(IterationReport(report, resources, budget = budget))
        val figures = CapacityStep.Figures(
            rate, length.toNanos() / 1e9, report.latencyMicros, report.successes, report.failures.total,
            unanswered, waitMicros, report.scheduled, report.late, report.capReached, saturated,
        )
        return CapacityStep.judge(objective, figures)
    }

    private companion object {
        val QUIET_WAIT: Duration = Duration.ofSeconds(30)
    }
}
