package serverbench.metrics

import serverbench.params.RunName
import java.io.File

/**
 * The files a run writes beside the result file (its latency log, a capacity search's steps): the launcher names a
 * root beside `<name>.json`, `<name>/`, and passes it to the forks ([PROPERTY]); each fork writes under
 * `<root>/<Class.method>/<param=value,...>/<what>-pid<N>.<ext>` (forks of one run differ by pid), and the launcher
 * records in the run's result entry ([FIELD]) the files that run made, so a report reads those and no other run's.
 * Without a result file (no `-rf`/`-rff`) nothing is written: the console has the figures.
 */
object RunFiles {
    /** The root the launcher passes to its forks (not forwarded from a user's `-D`: it is the launcher's). */
    const val PROPERTY = "serverbench.internal.runFiles"

    /** Result-file field of a run: its files, relative to the result file's directory. */
    const val FIELD = "files"

    /** `jmh-results/quick-20261127-120000.json` -> `jmh-results/quick-20261127-120000/`. */
    fun root(resultFile: File): File {
        val file = resultFile.absoluteFile
        return File(file.parentFile, file.name.substringBeforeLast('.', file.name))
    }

    /** One run's directory under [root]. */
    fun dir(root: File, benchmark: String, params: Map<String, String>) = File(root, RunName.path(benchmark, params))

    /** The files one run's forks wrote under [root]: what the launcher records in the result file. */
    fun made(root: File, benchmark: String, params: Map<String, String>): List<File> =
        dir(root, benchmark, params).listFiles { f -> f.isFile }.orEmpty().sortedBy { it.name }

    /**
     * In a fork: the file `<what>-pid<N>.<extension>` of this run, its directory made; null when the launcher named no
     * root (no result file, or a fork JMH started by itself).
     */
    fun forkFile(benchmark: String, params: Map<String, String>, what: String, extension: String): File? {
        val root = System.getProperty(PROPERTY)?.takeIf { it.isNotBlank() } ?: return null
        val dir = dir(File(root), benchmark, params)
        if (!dir.isDirectory && !dir.mkdirs()) return null
        return File(dir, "$what-pid${ProcessHandle.current().pid()}.$extension")
    }

    /** `latency-pid123.hlog` -> `latency`: what a file holds, whichever fork wrote it. */
    fun what(file: File): String = file.nameWithoutExtension.replace(Regex("-pid\\d+$"), "")
}
