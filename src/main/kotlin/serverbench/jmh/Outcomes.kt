package serverbench.jmh

import org.openjdk.jmh.infra.BenchmarkParams
import org.openjdk.jmh.results.BenchmarkResult
import org.openjdk.jmh.results.RunResult
import org.openjdk.jmh.results.format.ResultFormatFactory
import org.openjdk.jmh.results.format.ResultFormatType
import org.openjdk.jmh.runner.format.OutputFormat
import org.openjdk.jmh.runner.options.Options
import org.openjdk.jmh.util.Optional
import java.io.File
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.StandardCopyOption

/**
 * Which benchmark runs succeeded. JMH 1.37 keeps the iterations a fork measured before it failed and reports them as
 * the benchmark's result (one measurement iteration out of five, with a score), and leaves a run that failed in warmup
 * out entirely; neither fails the process without -foe. Here a run counts only if every fork measured every iteration;
 * anything less failed, and its partial numbers are never shown or written.
 */
object Outcomes {
    fun isComplete(result: BenchmarkResult): Boolean = result.iterationResults.size == expectedIterations(result.params)

    fun isComplete(run: RunResult): Boolean =
        run.benchmarkResults.size == forks(run.params) &&
            run.benchmarkResults.all { it.iterationResults.size == run.params.measurement.count }

    private fun forks(p: BenchmarkParams) = maxOf(1, p.forks)

    private fun expectedIterations(p: BenchmarkParams) = forks(p) * p.measurement.count

    fun describe(p: BenchmarkParams): String =
        p.benchmark.removePrefix("serverbench.benchmarks.") +
            p.paramsKeys.joinToString(", ", " (", ")") { "$it=${p.getParam(it)}" }.takeIf { p.paramsKeys.isNotEmpty() }.orEmpty()

    /** Writes [results] to [file] in [format] through a temporary file, so a reader never sees a half-written file. */
    fun write(results: Collection<RunResult>, file: String, format: ResultFormatType) {
        val target = File(file).absoluteFile
        target.parentFile?.mkdirs()
        val temp = File(target.parentFile, ".${target.name}.tmp")
        PrintStream(temp, Charsets.UTF_8).use { ResultFormatFactory.getInstance(format, it).writeOut(results) }
        Files.move(temp.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
    }
}

/**
 * JMH's console output, minus what would present a failed run as a result: a benchmark whose forks did not measure
 * every iteration gets one line saying it failed instead of its "Result" block, and stays out of the final table.
 * Also keeps the completed results as they arrive, for the result file when -foe stops the run early.
 */
class CompleteResultsOutput(private val delegate: OutputFormat) : OutputFormat by delegate {
    val completed = ArrayList<RunResult>()
    val failed = ArrayList<String>()

    override fun endBenchmark(result: BenchmarkResult?) {
        if (result == null) return delegate.endBenchmark(null)
        if (Outcomes.isComplete(result)) {
            completed += RunResult(result.params, listOf(result))
            delegate.endBenchmark(result)
        } else {
            failed += Outcomes.describe(result.params)
            delegate.println("serverbench: ${Outcomes.describe(result.params)} FAILED after ${result.iterationResults.size} " +
                "of ${result.params.measurement.count * maxOf(1, result.params.forks)} measurement iterations; its partial " +
                "numbers are discarded")
            delegate.println("")
        }
    }

    override fun endRun(result: Collection<RunResult>?) {
        delegate.endRun(result?.filter { Outcomes.isComplete(it) })
    }
}

/** The user's options with the result file hidden from JMH: the launcher writes it, with completed runs only. */
class WithoutResultFile(private val delegate: Options) : Options by delegate {
    override fun getResult(): Optional<String> = Optional.none()
    override fun getResultFormat(): Optional<ResultFormatType> = Optional.none()

    companion object {
        private const val serialVersionUID = 1L
    }
}
