package serverbench.testing

import org.openjdk.jmh.annotations.Mode
import serverbench.launcher.Plan

/**
 * A planned run ([Plan.Run]) in throughput mode, as the launcher's tests plan them: [benchmark] is a class and method
 * under `serverbench.benchmarks` (`NoopBenchmark.hello`), [params] in the order JMH would give them. One builder for
 * the copies the applicability, console, target-check, parameter-check and session tests each had.
 */
fun planRun(benchmark: String, vararg params: Pair<String, String>, estimateSeconds: Long = 10) =
    Plan.Run("serverbench.benchmarks.$benchmark", Mode.Throughput, linkedMapOf(*params), estimateSeconds)
