package serverbench.jmh

import org.openjdk.jmh.annotations.Mode
import org.openjdk.jmh.infra.BenchmarkParams
import org.openjdk.jmh.results.BenchmarkResult
import org.openjdk.jmh.results.RunResult
import org.openjdk.jmh.results.format.ResultFormatFactory
import org.openjdk.jmh.results.format.ResultFormatType
import org.openjdk.jmh.runner.format.OutputFormat
import org.openjdk.jmh.runner.options.Options
import org.openjdk.jmh.util.Optional
import serverbench.report.Flamegraphs
import tools.jackson.databind.json.JsonMapper
import tools.jackson.databind.node.ArrayNode
import tools.jackson.databind.node.ObjectNode
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.StandardCopyOption
import java.util.regex.Pattern

/**
 * Which benchmark runs succeeded. JMH 1.37 keeps the iterations a fork measured before it failed and reports them as
 * the benchmark's result (one measurement iteration out of five, with a score), and leaves a run that failed in warmup
 * out entirely; neither fails the process without -foe. Here a run counts only if every fork measured every iteration;
 * anything less failed, and its partial numbers are never shown or written.
 */
object Outcomes {
    fun isComplete(result: BenchmarkResult): Boolean =
        result.iterationResults.size == maxOf(1, result.params.forks) * result.params.measurement.count

    fun isComplete(run: RunResult): Boolean =
        run.benchmarkResults.size == maxOf(1, run.params.forks) &&
            run.benchmarkResults.all { it.iterationResults.size == run.params.measurement.count }

    fun describe(p: BenchmarkParams): String =
        p.benchmark.removePrefix("serverbench.benchmarks.") +
            p.paramsKeys.filterNot { serverbench.fixture.CpuPlacement.isDefault(it, p.getParam(it)) }
                .let { keys -> if (keys.isEmpty()) "" else keys.joinToString(", ", " (", ")") { "$it=${p.getParam(it)}" } }

    /**
     * An existing results file is never overwritten silently: it is renamed to `<name>.<its last-modified time>.<ext>`
     * (the returned path) before the first new result is written. Also fails early if the directory is not writable.
     * Only the launcher calls this, once per session; within a session the file grows run by run.
     */
    fun keepPrevious(file: String): String? {
        val target = File(file).absoluteFile
        target.parentFile?.mkdirs()
        if (target.parentFile?.canWrite() == false) throw java.io.IOException("${target.parentFile} is not writable")
        // An empty file holds no results (e.g. one a script created for us): nothing to keep.
        if (!target.exists() || target.length() == 0L) return null
        val stamp = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(java.time.ZoneId.systemDefault())
            .format(java.time.Instant.ofEpochMilli(target.lastModified()))
        val base = target.name.substringBeforeLast('.', target.name)
        val ext = target.name.substringAfterLast('.', "").let { if (it.isEmpty()) "" else ".$it" }
        var kept = File(target.parentFile, "$base.$stamp$ext")
        var n = 1
        while (kept.exists()) kept = File(target.parentFile, "$base.$stamp-${n++}$ext")
        Files.move(target.toPath(), kept.toPath(), StandardCopyOption.ATOMIC_MOVE)
        return File(file).parentFile?.let { File(it, kept.name).path } ?: kept.name
    }

    /**
     * Writes [results] to [file] in [format] through a temporary file, so a reader never sees a half-written file. In
     * JSON, an entry whose run made [profiles] lists them (field [Flamegraphs.FIELD], paths relative to the file's
     * directory), so a report links the graphs of that run and of no other.
     */
    fun write(results: Collection<RunResult>, file: String, format: ResultFormatType,
              profiles: (RunResult) -> List<File> = { emptyList() }) {
        val target = File(file).absoluteFile
        target.parentFile?.mkdirs()
        val temp = File(target.parentFile, ".${target.name}.tmp")
        val listed = results.map { r ->
            profiles(r).map { it.absoluteFile.relativeTo(target.parentFile).invariantSeparatorsPath }
        }
        if (format != ResultFormatType.JSON || listed.all { it.isEmpty() }) {
            PrintStream(temp, Charsets.UTF_8).use { ResultFormatFactory.getInstance(format, it).writeOut(results) }
        } else {
            val json = ByteArrayOutputStream()
            PrintStream(json, true, Charsets.UTF_8).use { out ->
                ResultFormatFactory.getInstance(format, out).writeOut(results)
            }
            temp.writeText(withProfiles(json.toString(Charsets.UTF_8), listed), Charsets.UTF_8)
        }
        Files.move(temp.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
    }

    /** JMH's JSON with [Flamegraphs.FIELD] added to the entries (in the same order) that have profiles. */
    fun withProfiles(json: String, profiles: List<List<String>>): String {
        val mapper = JsonMapper.builder().build()
        val root = mapper.readTree(json) as ArrayNode
        require(root.size() == profiles.size) { "${root.size()} results, ${profiles.size} profile lists" }
        profiles.forEachIndexed { i, paths ->
            if (paths.isNotEmpty()) {
                (root[i] as ObjectNode).putArray(Flamegraphs.FIELD).apply { paths.forEach { add(it) } }
            }
        }
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n"
    }
}

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
    private fun reason(line: String): String =
        Regex("^[\\w.$]+(?:Exception|Error|Failure): (.*)$").find(line.trim())?.groupValues?.get(1)?.removePrefix("serverbench: ") ?: line.trim().removePrefix("serverbench: ")

    override fun endBenchmark(result: BenchmarkResult?) {
        if (result == null || Outcomes.isComplete(result)) return delegate.endBenchmark(result)
        delegate.println("serverbench: ${Outcomes.describe(result.params)} FAILED after ${result.iterationResults.size} " +
            "of ${result.params.measurement.count * maxOf(1, result.params.forks)} measurement iterations; its partial " +
            "numbers are discarded")
        delegate.println("")
    }
}

/** "# Run progress" for a session: which run of how many, and an ETA from the runs so far. */
object Progress {
    fun line(index: Int, runs: List<Plan.Run>, elapsedSeconds: Long): String =
        "# Run progress: run ${index + 1} of ${runs.size} (${"%.2f".format(100.0 * index / runs.size)}% complete), " +
            "ETA ${eta(index, runs, elapsedSeconds)}"

    /** Time left: the estimate of the runs to go, scaled by how the finished runs compared with theirs. */
    fun eta(index: Int, runs: List<Plan.Run>, elapsedSeconds: Long): String {
        val done = runs.take(index).sumOf { it.estimateSeconds }
        val left = runs.drop(index).sumOf { it.estimateSeconds }
        return duration(if (index == 0 || done == 0L) left else left * elapsedSeconds / done)
    }

    fun duration(seconds: Long) = "%02d:%02d:%02d".format(seconds / 3600, seconds / 60 % 60, seconds % 60)
}

/**
 * The user's options narrowed to one planned run: only that benchmark, its mode and its parameter values, and no
 * result file (the launcher writes it, with completed runs only).
 */
class SingleRun(private val base: Options, private val run: Plan.Run) : Options by base {
    override fun getIncludes(): List<String> = listOf("^" + Pattern.quote(run.benchmark) + "$")
    override fun getExcludes(): List<String> = emptyList()
    override fun getBenchModes(): Collection<Mode> = listOf(run.mode)
    override fun getParameter(name: String): Optional<Collection<String>> =
        run.params[name]?.let { Optional.of<Collection<String>>(listOf(it)) } ?: base.getParameter(name)
    override fun getResult(): Optional<String> = Optional.none()
    override fun getResultFormat(): Optional<ResultFormatType> = Optional.none()

    /** Under a CPU budget the fork's JVM sizes itself as a container's would: to the processors the budget allows. */
    override fun getJvmArgsAppend(): Optional<Collection<String>> {
        val processors = ParamRules.placement(run).activeProcessors ?: return base.jvmArgsAppend
        return Optional.of(base.jvmArgsAppend.orElse(emptyList()) + "-XX:ActiveProcessorCount=$processors")
    }

    companion object {
        private const val serialVersionUID = 1L
    }
}
