package serverbench.launcher

import org.openjdk.jmh.annotations.Mode
import org.openjdk.jmh.results.format.ResultFormatType
import org.openjdk.jmh.runner.options.Options
import org.openjdk.jmh.util.Optional
import serverbench.metrics.RunFiles
import java.io.File
import java.util.regex.Pattern

/**
 * The user's options narrowed to one planned run: only that benchmark, its mode and its parameter values, and no
 * result file (the launcher writes it, with completed runs only; its forks' own files go under [runFiles]).
 */
class SingleRun(
    private val base: Options,
    private val run: Plan.Run,
    /** The class-data archive's flags ([ForkArchive]), if the session has one for this run's server. */
    private val archive: List<String> = emptyList(),
    /** Where the run's forks write their own files ([RunFiles]), or null (no result file). */
    private val runFiles: File? = null,
) : Options by base {
    override fun getIncludes(): List<String> = listOf("^" + Pattern.quote(run.benchmark) + "$")
    override fun getExcludes(): List<String> = emptyList()
    override fun getBenchModes(): Collection<Mode> = listOf(run.mode)
    override fun getParameter(name: String): Optional<Collection<String>> =
        run.params[name]?.let { Optional.of<Collection<String>>(listOf(it)) } ?: base.getParameter(name)
    override fun getResult(): Optional<String> = Optional.none()
    override fun getResultFormat(): Optional<ResultFormatType> = Optional.none()

    /** Under a CPU budget the fork's JVM sizes itself as a container's would: to the processors the budget allows. */
    override fun getJvmArgsAppend(): Optional<Collection<String>> {
        val processors = ParamCheck.placement(run).activeProcessors
        if (processors == null && archive.isEmpty() && runFiles == null) return base.jvmArgsAppend
        val budget = processors?.let { listOf("-XX:ActiveProcessorCount=$it") }.orEmpty()
        val files = runFiles?.let { listOf("-D${RunFiles.PROPERTY}=${it.absolutePath}") }.orEmpty()
        return Optional.of(base.jvmArgsAppend.orElse(emptyList()) + archive + budget + files)
    }

    companion object {
        private const val serialVersionUID = 1L
    }
}
