package serverbench.benchmarks

import org.openjdk.jmh.infra.IterationParams
import org.openjdk.jmh.runner.IterationType
import serverbench.client.ClientReport
import serverbench.metrics.Guards
import serverbench.metrics.IterationReport
import serverbench.metrics.Steadiness

/**
 * What a trial's measured iterations add up to, for its closing warning lines: how many iterations fired each guard
 * (and its last text), and the run-level notSteady verdict over their successful req/s. Warmup never counts.
 */
internal class MeasuredIterations {
    private var count = 0
    private val warnings = LinkedHashMap<String, Pair<Int, String>>()
    private val rates = ArrayList<Double>()

    fun clear() {
        count = 0
        warnings.clear()
        rates.clear()
    }

    /** Counts [iteration] if measured, and says whether it was the fork's last measured one. */
    fun ended(iteration: IterationParams, report: ClientReport): Boolean {
        if (iteration.type != IterationType.MEASUREMENT) return false
        if (report.wallNanos > 0) rates += report.successes / (report.wallNanos / 1e9)
        return ++count == iteration.count
    }

    /** The notSteady verdict over the measured iterations, on the last one; null before it or when steady. */
    fun notSteady(last: Boolean): String? = if (last) Steadiness.notSteady(rates) else null

    fun record(iteration: IterationParams, report: IterationReport) {
        if (iteration.type == IterationType.MEASUREMENT) {
            for ((guard, warning) in report.guards) {
                if (warning != null) warnings[guard] = (warnings[guard]?.first ?: 0) + 1 to warning
            }
        }
        report.notSteady?.let { warnings[Guards.NOT_STEADY] = 0 to it }
    }

    /** One line per guard that fired; a run-level guard (count 0) judges the measured iterations together. */
    fun printWarnings(runName: String) {
        for ((guard, fired) in warnings) {
            val where = if (fired.first == 0) "" else ", in ${fired.first} of $count measured iterations"
            println("\nserverbench: WARNING ($guard$where) $runName: ${fired.second}")
        }
    }
}
