package serverbench.testing

import serverbench.report.BenchmarkResult
import serverbench.report.Metric
import java.io.File

/*
 * Report rows ([BenchmarkResult]) and their [Metric]s, as the report, findings, charts and comparison tests build them.
 * Each of those tests had its own copy of the same constructor call; here is one, with the defaults most rows share, so
 * a test states only what its case is about.
 */

/**
 * One row of a result file. [benchmark] is a class and method under `serverbench.benchmarks` (`NoopBenchmark.hello`)
 * or a full name; the primary metric is req/s, [score] ± [error].
 */
fun row(
    benchmark: String,
    params: Map<String, String>,
    score: Double = 100.0,
    error: Double = 1.0,
    secondary: Map<String, Metric> = emptyMap(),
    profiles: List<File> = emptyList(),
    jdkVersion: String = "",
    forks: Int = 0,
    iterations: Int = 0,
    iterationTime: String = "",
): BenchmarkResult = BenchmarkResult(
    if (benchmark.count { it == '.' } >= 2) benchmark else "serverbench.benchmarks.$benchmark",
    params,
    Metric(score, error, "ops/s"),
    secondary,
    profiles,
    jdkVersion,
    forks,
    iterations,
    iterationTime,
)

/** A figure without an interval unless [error] is given: what most secondary metrics of a test row are. */
fun metric(score: Double, unit: String, error: Double = Double.NaN) = Metric(score, error, unit)

/**
 * A latency percentile in ms over [samples] iterations, as a result file has it: the range of the per-iteration
 * values, the error its larger side.
 */
fun latencyRange(score: Double, low: Double, high: Double, samples: Int) =
    Metric(score, maxOf(score - low, high - score), "ms", low, high, samples)

/** `warning.notSteady`, written as 0 or 1 by the steadiness guard. */
fun notSteadyFlag(notSteady: Boolean = false) =
    BenchmarkResult.NOT_STEADY to Metric(if (notSteady) 1.0 else 0.0, Double.NaN, "flag")

/** The `errors` count. */
fun errorCount(errors: Double = 0.0) = "errors" to Metric(errors, Double.NaN, "count")

/** `client.threads`: how many threads the load client ran on. */
fun clientThreads(n: Int) = "client.threads" to Metric(n.toDouble(), Double.NaN, "threads")

/** `server.remote`: the row was measured against a target started elsewhere. */
fun remoteFlag() = "server.remote" to Metric(1.0, 0.0, "flag")

/** This row with [metrics] added to (or replacing) its secondary metrics. */
fun BenchmarkResult.withSecondary(vararg metrics: Pair<String, Metric>) = copy(secondary = secondary + metrics)
