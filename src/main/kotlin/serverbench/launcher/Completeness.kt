package serverbench.launcher

import org.openjdk.jmh.results.BenchmarkResult
import org.openjdk.jmh.results.RunResult

/**
 * Which benchmark runs succeeded. JMH 1.37 keeps the iterations a fork measured before it failed and reports them as
 * the benchmark's result (one measurement iteration out of five, with a score), and leaves a run that failed in warmup
 * out entirely; neither fails the process without -foe. Here a run counts only if every fork measured every iteration;
 * anything less failed, and its partial numbers are never shown or written.
 */
object Completeness {
    fun isComplete(result: BenchmarkResult): Boolean =
        result.iterationResults.size == maxOf(1, result.params.forks) * result.params.measurement.count

    fun isComplete(run: RunResult): Boolean = run.benchmarkResults.size == maxOf(1, run.params.forks) &&
        run.benchmarkResults.all { it.iterationResults.size == run.params.measurement.count }
}
