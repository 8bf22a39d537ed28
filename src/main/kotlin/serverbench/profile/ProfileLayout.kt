package serverbench.profile

import serverbench.params.LaterParams
import serverbench.params.ParamNames
import serverbench.params.RunName
import java.io.File
import java.io.IOException
import java.time.Instant
import java.time.ZoneId
import java.time.format.DateTimeFormatter

/**
 * Flamegraphs and the run that made them. `-prof flame` writes per launcher session (one `java -jar` invocation)
 * `profiles/<session>/<Class.method>/<param=value,...>/<event>[-pid<N>].{html,collapsed,txt}`, and the launcher
 * records in each entry of the result file ([FIELD]) the files that run made. The report links only those: a directory
 * named by benchmark and parameters alone also holds the graphs of other runs (an earlier profiled run, the baseline).
 */
object ProfileLayout {
    /** Result-file field of a run: the files its profiler wrote, relative to the result file's directory. */
    const val FIELD = "profiles"

    private val STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneId.systemDefault())

    /** `concurrency=16,limit=1000,server=netty` ([RunName.dirName]). */
    fun dirName(params: Map<String, String>): String = RunName.dirName(params)

    /**
     * `CpuBenchmark.direct · server=netty · concurrency=64, limit=10000 · cpu [· suffix]`: the heading of a graph, so
     * that a graph opened from a pull request says what it shows (the budget's parameters at their defaults left out).
     */
    fun title(benchmark: String, params: Map<String, String>, event: String, suffix: String? = null): String =
        listOfNotNull(benchmark.removePrefix("serverbench.benchmarks."), label(params), event, suffix)
            .filter { it.isNotEmpty() }.joinToString(" · ")

    /** `server=netty · concurrency=64, limit=10000`: a run's parameters, the server first. */
    fun label(params: Map<String, String>): String {
        val shown = params.filterNot { LaterParams.isDefault(it.key, it.value) }
        val rest = shown.filterKeys { it != ParamNames.SERVER }.entries.joinToString(", ") { "${it.key}=${it.value}" }
        return listOfNotNull(
            shown[ParamNames.SERVER]?.let {
                "${ParamNames.SERVER}=$it"
            },
            rest.ifEmpty { null },
        ).joinToString(" · ")
    }

    /**
     * [title] as HTML text without commas: async-profiler and its converter paste the title into the page unescaped,
     * and the profiler's own options are comma-separated (asprof's `--title` escapes the same way). Non-ASCII as
     * character references too, so no step between here and the page can get the encoding wrong.
     */
    fun htmlTitle(title: String): String = buildString {
        title.codePoints().forEach { c ->
            when {
                c == '&'.code -> append("&amp;")
                c == '<'.code -> append("&lt;")
                c == '>'.code -> append("&gt;")
                c == ','.code || c > 126 || c < 32 -> append("&#").append(c).append(';')
                else -> appendCodePoint(c)
            }
        }
    }

    /** The directory of one benchmark method's profiles with these parameters. */
    fun dir(root: File, benchmark: String, params: Map<String, String>) = File(root, RunName.path(benchmark, params))

    /**
     * Creates a new session directory under [root], named by the launcher's start time (`-2`, `-3` … when two sessions
     * start within a second), and returns its name. Created before any fork writes, so no other session can take it.
     */
    fun newSession(root: File, now: Instant = Instant.now()): String {
        val stamp = STAMP.format(now)
        root.mkdirs()
        var name = stamp
        var n = 2
        while (!File(root, name).mkdir()) {
            if (!root.isDirectory || !root.canWrite()) throw IOException("cannot create a directory in $root")
            name = "$stamp-${n++}"
        }
        return name
    }

    /** The files one run's profiler wrote in its session: what the launcher records in the result file. */
    fun made(sessionDir: File, benchmark: String, params: Map<String, String>): List<File> =
        dir(sessionDir, benchmark, params).listFiles { f -> f.isFile }.orEmpty().sortedBy { it.name }

    /** `cpu-pid123.collapsed` -> `cpu`: the event, whichever fork wrote the file. */
    fun event(file: File): String = file.nameWithoutExtension.replace(Regex("-pid\\d+$"), "")
}
