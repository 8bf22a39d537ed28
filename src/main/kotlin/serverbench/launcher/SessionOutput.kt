package serverbench.launcher

import org.openjdk.jmh.results.BenchmarkResult
import org.openjdk.jmh.results.RunResult
import org.openjdk.jmh.runner.format.OutputFormat
import serverbench.params.RunName

/**
 * JMH's console output for a session of runs (the launcher runs JMH once per benchmark run): JMH's per-run progress,
 * "Run complete" and final table are replaced by one progress line per run and one table at the end; a run whose forks
 * did not measure every iteration gets a line saying it failed instead of its "Result" block.
 */
class SessionOutput(private val delegate: OutputFormat) : OutputFormat by delegate {
    private var started = false
    private var afterFailureMarker = false

    /**
     * The first line of the first exception a fork reported since [takeFailure] was last called ("java.lang.X: why"),
     * so the session's summary can say why each run failed without the reader digging through stack traces.
     */
    private var failure: String? = null

    fun takeFailure(): String? = failure.also { failure = null }

    override fun startRun() {
        if (!started) delegate.startRun()
        started = true
    }

    override fun endRun(result: Collection<RunResult>?) {
        // once, from finish()
    }

    fun finish(results: Collection<RunResult>, elapsedSeconds: Long) {
        delegate.println("")
        delegate.println("# Run complete. Total time: ${Progress.duration(elapsedSeconds)}")
        delegate.println("")
        delegate.endRun(results)
        delegate.flush()
    }

    override fun close() {
        // JMH closes its output after every run; this one lives for the whole session.
        delegate.flush()
    }

    override fun println(s: String?) {
        if (s != null && (s.startsWith("# Run progress:") || s.startsWith("# Run complete."))) return
        if (s != null && s.trimEnd().endsWith("<failure>")) {
            afterFailureMarker = true
        } else if (afterFailureMarker && !s.isNullOrBlank()) {
            afterFailureMarker = false
            if (failure == null) failure = reason(s.lineSequence().first())
        }
        delegate.println(s)
    }

    /** "java.lang.IllegalStateException: why" -> "why"; a LoadFailure prints as "serverbench: why" -> "why". */
    private fun reason(line: String): String = Regex(
        "^[\\w.$]+(?:Exception|Error|Failure): (.*)$",
    ).find(line.trim())?.groupValues?.get(1)?.removePrefix("serverbench: ")
        ?: line.trim().removePrefix("serverbench: ")

    override fun endBenchmark(result: BenchmarkResult?) {
        if (result == null || Completeness.isComplete(result)) return delegate.endBenchmark(result)
        val planned = result.params.measurement.count * maxOf(1, result.params.forks)
        // What was measured before the failure stays readable here, never as a result: a result is a whole run.
        val measured = result.iterationResults.joinToString(", ") { "%,.0f".format(it.primaryResult.score) }
        val kept = if (measured.isEmpty()) "" else " (${result.primaryResult.scoreUnit} per iteration: $measured)"
        delegate.println(
            "serverbench: ${RunName.of(result.params)} FAILED after ${result.iterationResults.size} " +
                "of $planned measurement iterations$kept; not written to the results, which hold whole runs only",
        )
        delegate.println("")
    }
}
