package serverbench.benchmarks

import serverbench.client.LoadGroup
import serverbench.client.Properties
import serverbench.metrics.CapacitySearch
import serverbench.metrics.CapacityStep
import serverbench.metrics.Figure
import serverbench.metrics.RunFiles
import serverbench.params.Objective
import tools.jackson.databind.json.JsonMapper
import java.time.Duration
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
    private val meter: OpenLoopStep.StepMeter,
    private val open: (Double) -> LoadGroup,
    private val stepLength: Duration = Duration.ofSeconds(stepSeconds()),
) {
    private val step = OpenLoopStep(objective, meter, open, stepLength)

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
        val outcome = CapacitySearch(limits, step::run) { s, n -> println(stepLine(s, n, limits.maxSteps)) }.run()
        println("serverbench: capacity for ${objective.describe()}: ${outcome.describe()}")
        write(outcome, benchmark, params)
        return outcome
    }

    private fun stepLine(s: CapacityStep, n: Int, most: Int): String =
        "serverbench: capacity step %d (of at most %d): %s".format(n, most, s.describe())

    /** The steps beside the result file (`capacity-pid<N>.json`), for the report's chart. */
    private fun write(outcome: CapacitySearch.Outcome, benchmark: String, params: Map<String, String>) {
        val file = RunFiles.forkFile(benchmark, params, CAPACITY_FILE, "json") ?: return
        val steps = outcome.steps.map { it.fields() }
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

        /** The ladder's first rate is the warm server's closed-loop req/s ÷ this: its first steps meet with room. */
        const val START_DIVISOR = 4.0
        const val STEP_PROPERTY = CapacitySearch.STEP_PROPERTY
        const val START_PROPERTY = "serverbench.capacity.startRate"
        const val MAX_RATE_PROPERTY = "serverbench.capacity.maxRate"
        const val PRECISION_PROPERTY = "serverbench.capacity.precisionPercent"
        const val MAX_STEPS_PROPERTY = "serverbench.capacity.maxSteps"
        const val DEFAULT_STEP_SECONDS = 10L
        const val DEFAULT_MAX_STEPS = 16L

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
