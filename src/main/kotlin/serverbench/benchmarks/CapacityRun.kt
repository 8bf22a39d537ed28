package serverbench.benchmarks

import serverbench.client.LoadFailure
import serverbench.client.LoadGroup
import serverbench.client.Properties
import serverbench.metrics.BudgetReport
import serverbench.metrics.CapacitySearch
import serverbench.metrics.CapacityStep
import serverbench.metrics.Figure
import serverbench.metrics.Guards
import serverbench.metrics.IterationReport
import serverbench.metrics.ResourceReport
import serverbench.metrics.RunFiles
import serverbench.params.Objective
import tools.jackson.databind.json.JsonMapper
import java.time.Duration
import java.util.concurrent.TimeUnit
import serverbench.metrics.MetricCatalogue as M

/**
 * A capacity search in the fork (`-p objective`, docs/capacity.md): after the trial's warmup, fixed-rate open-loop
 * steps on the server already started and warm, each on a load group of its own ([open]) that is drained and closed
 * before the next, so no request of one step lands in another; then JMH's measured iterations run at the rate found.
 * One server start and one warmup for the whole search: a fork per step would pay both each time, and a cold JIT would
 * make every step's server a different one.
 */
internal class CapacityRun(
    private val objective: Objective,
    /** The server's figures around each step (its CPU, the machine's: the clientSaturated guard reads them). */
    private val meter: StepMeter,
    private val open: (Double) -> LoadGroup,
    private val stepLength: Duration = Duration.ofSeconds(stepSeconds()),
) {
    /** What runs around each step's window, as around a measured iteration; a family's own checks included. */
    interface StepMeter {
        fun begin(group: LoadGroup)

        fun end(group: LoadGroup): Pair<ResourceReport?, BudgetReport?>
    }

    /** Late answers count up to this long after the window (longer than the objective, so a miss shows as one). */
    private val drainWait = Duration.ofMillis(maxOf(1_000L, 2 * objective.limitMillis.toLong()))

    /** Searches from [start] req/s (the warmup's closed-loop rate ÷ 4 unless set); prints each step. */
    fun search(
        start: Double,
        benchmark: String,
        params: Map<String, String>,
        limits: CapacitySearch.Limits = limitsFromProperties(start),
    ): CapacitySearch.Outcome {
        println(
            (
                "serverbench: capacity search for ${objective.describe()}: a ladder from %s req/s (×%.0f), then " +
                    "bisection to %d %%; at most %d steps of %d s (plus drains)"
                ).format(
                CapacitySearch.rateText(CapacitySearch.round(limits.start)),
                limits.factor,
                (limits.precision * 100).toInt(),
                limits.maxSteps,
                stepLength.seconds,
            ),
        )
        val outcome = CapacitySearch(limits, ::step) { s, n -> println(stepLine(s, n, limits.maxSteps)) }.run()
        println("serverbench: capacity for ${objective.describe()}: ${outcome.describe()}")
        write(outcome, benchmark, params)
        return outcome
    }

    /** One fixed-rate window on a new group, its late answers waited for, then judged. */
    private fun step(rate: Double): CapacityStep {
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
        group.beginIteration(stepLength)
        meter.begin(group)
        val start = System.nanoTime()
        val nanos = stepLength.toNanos()
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
            rate, stepLength.toNanos() / 1e9, report.latencyMicros, report.successes, report.failures.total,
            unanswered, waitMicros, report.scheduled, report.late, report.capReached, saturated,
        )
        return CapacityStep.judge(objective, figures)
    }

    private fun stepLine(s: CapacityStep, n: Int, most: Int): String {
        val verdict = when (s.verdict) {
            CapacityStep.Verdict.MET -> "met"
            CapacityStep.Verdict.MISSED -> "missed: ${s.why}"
            CapacityStep.Verdict.CLIENT -> "does not count: ${s.why}"
        }
        return "serverbench: capacity step %d (of at most %d): %s req/s: p50 %.1f ms, p99 %.1f ms, %d errors: %s"
            .format(n, most, CapacitySearch.rateText(s.rate), s.p50Millis, s.p99Millis, s.errors, verdict)
    }

    /** The steps beside the result file (`capacity-pid<N>.json`), for the report's chart. */
    private fun write(outcome: CapacitySearch.Outcome, benchmark: String, params: Map<String, String>) {
        val file = RunFiles.forkFile(benchmark, params, CAPACITY_FILE, "json") ?: return
        val steps = outcome.steps.map {
            mapOf(
                "rate" to it.rate, "sentRate" to it.sentRate, "servedRate" to it.servedRate,
                "p50Ms" to it.p50Millis, "p99Ms" to it.p99Millis, "objectiveMs" to it.objectiveMillis,
                "errors" to it.errors, "unanswered" to it.unanswered, "verdict" to it.verdict.name, "why" to it.why,
            )
        }
        val json = mapOf(
            "objective" to objective.text, "percentile" to objective.percentile, "limitMs" to objective.limitMillis,
            "kind" to outcome.kind.name, "low" to outcome.low, "high" to outcome.high, "why" to outcome.why,
            "stepSeconds" to stepLength.seconds, "steps" to steps,
        )
        runCatching { JsonMapper.builder().build().writerWithDefaultPrettyPrinter().writeValue(file, json) }
            .onFailure { println("serverbench: could not write $file: $it") }
    }

    companion object {
        const val CAPACITY_FILE = "capacity"
        const val STEP_PROPERTY = CapacitySearch.STEP_PROPERTY
        const val START_PROPERTY = "serverbench.capacity.startRate"
        const val MAX_RATE_PROPERTY = "serverbench.capacity.maxRate"
        const val PRECISION_PROPERTY = "serverbench.capacity.precisionPercent"
        const val MAX_STEPS_PROPERTY = "serverbench.capacity.maxSteps"
        const val DEFAULT_STEP_SECONDS = 10L
        const val DEFAULT_MAX_STEPS = 16L
        private val QUIET_WAIT: Duration = Duration.ofSeconds(30)

        /** A closed-loop window of [PROBE] on the trial's group: the ladder's seed when there was no warmup. */
        fun closedLoopRate(group: LoadGroup): Double {
            group.beginIteration(PROBE)
            val start = System.nanoTime()
            do group.next() while (System.nanoTime() - start < PROBE.toNanos())
            val report = group.endIteration()
            return report.successes / (report.wallNanos / 1e9)
        }

        private val PROBE: Duration = Duration.ofSeconds(2)

        /**
         * The search's limits from `-Dserverbench.capacity.*` (the ladder's [start] unless set); throws
         * [IllegalArgumentException] naming a bad property: the launcher asks before any fork starts.
         */
        fun limitsFromProperties(start: Double = 1.0) = CapacitySearch.Limits(
            start = Properties.long(START_PROPERTY, min = 1, unit = "req/s")?.toDouble() ?: start,
            max = Properties.long(MAX_RATE_PROPERTY, min = 1, unit = "req/s")?.toDouble() ?: 1_000_000.0,
            precision = (Properties.long(PRECISION_PROPERTY, min = 1, unit = "%") ?: DEFAULT_PRECISION) / 100.0,
            maxSteps = maxSteps().toInt(),
        ).also { stepSeconds() }

        private const val DEFAULT_PRECISION = 3L

        fun stepSeconds(): Long = Properties.long(STEP_PROPERTY, min = 1, unit = "seconds") ?: DEFAULT_STEP_SECONDS

        fun maxSteps(): Long = Properties.long(MAX_STEPS_PROPERTY, min = 3) ?: DEFAULT_MAX_STEPS

        /** The outcome as run-level results, on the fork's last measured iteration ([M.CAPACITY] and the rest). */
        fun figures(outcome: CapacitySearch.Outcome): List<Figure> = listOfNotNull(
            outcome.low?.let { Figure(M.CAPACITY, it) },
            outcome.high?.let { Figure(M.CAPACITY_HIGH, it) },
            Figure(M.CAPACITY_KIND, outcome.kind.code.toDouble()),
            Figure(M.CAPACITY_STEPS, outcome.steps.size.toDouble()),
        )
    }
}
