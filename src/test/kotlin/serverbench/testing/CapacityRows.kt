package serverbench.testing

import serverbench.metrics.CapacitySearch
import serverbench.report.BenchmarkResult
import java.io.File
import java.util.Locale

/*
 * A capacity search's report rows (`-p objective`): the run-level results a search writes (`capacity`,
 * `capacity.missedAt`, `capacity.kind`, `capacity.steps`) and the steps file a fork writes beside the result file
 * (`capacity-pid<N>.json`), as the report's capacity tests build them.
 */

/** One row of a capacity search on [server]: [low] met, [high] missed, as [kind] says; [files] its steps files. */
fun capacityRow(
    server: String,
    kind: CapacitySearch.Kind,
    low: Double?,
    high: Double?,
    variant: String = "direct",
    objective: String = "p99:100ms",
    steps: Int = 10,
    files: List<File> = emptyList(),
): BenchmarkResult = row(
    "CpuBenchmark.$variant",
    mapOf("concurrency" to "64", "limit" to "1000", "objective" to objective, "server" to server),
    score = low ?: 10.0,
    error = Double.NaN,
    secondary = listOfNotNull(
        low?.let { "capacity" to metric(it, "req/s") },
        high?.let { "capacity.missedAt" to metric(it, "req/s") },
        "capacity.kind" to metric(kind.code.toDouble(), "code"),
        "capacity.steps" to metric(steps.toDouble(), "steps"),
    ).toMap(),
    jdkVersion = "17.0.15",
    forks = 1,
    iterations = 1,
    iterationTime = "5 s",
).copy(files = files)

/** One step of a steps file: its rate, p50 and p99 in ms, and its verdict (`MET`, `MISSED`, `CLIENT`). */
data class StepLine(val rate: Double, val p50: Double, val p99: Double, val verdict: String, val why: String = "")

/**
 * A steps file `capacity-pid<pid>.json` in [dir] as CapacityRun writes it: objective p99 ≤ [limitMs] ms, the outcome
 * and its [steps] in the order they ran. A NaN latency is written as the string "NaN", as Jackson writes it.
 */
fun capacityFile(
    dir: File,
    kind: CapacitySearch.Kind,
    low: Double?,
    high: Double?,
    steps: List<StepLine>,
    limitMs: Double = 100.0,
    why: String = "within 3 %, confirmed",
    pid: Int = 4242,
): File {
    fun n(x: Double?) = when {
        x == null -> "null"
        x.isNaN() -> "\"NaN\""
        else -> String.format(Locale.ROOT, "%s", x)
    }
    val lines = steps.joinToString(",\n") {
        """{"rate": ${n(it.rate)}, "sentRate": ${n(it.rate)}, "servedRate": ${n(it.rate)}, "p50Ms": ${n(it.p50)},
           "p99Ms": ${n(it.p99)}, "objectiveMs": ${n(it.p99)}, "errors": 0, "unanswered": 0,
           "verdict": "${it.verdict}", "why": "${it.why}"}"""
    }
    dir.mkdirs()
    return File(dir, "capacity-pid$pid.json").apply {
        writeText(
            """{"objective": "p99:${limitMs.toLong()}ms", "percentile": 99.0, "limitMs": ${n(limitMs)},
               "kind": "${kind.name}", "low": ${n(low)}, "high": ${n(high)}, "why": "$why", "stepSeconds": 10,
               "steps": [$lines]}""",
        )
    }
}
