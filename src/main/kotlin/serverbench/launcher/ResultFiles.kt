package serverbench.launcher

import org.openjdk.jmh.results.RunResult
import org.openjdk.jmh.results.format.ResultFormatFactory
import org.openjdk.jmh.results.format.ResultFormatType
import serverbench.metrics.RunFiles
import serverbench.profile.ProfileLayout
import tools.jackson.databind.json.JsonMapper
import tools.jackson.databind.node.ArrayNode
import tools.jackson.databind.node.ObjectNode
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.IOException
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.StandardCopyOption
import java.time.Instant
import java.time.ZoneId
import java.time.format.DateTimeFormatter

/** The result file: written atomically, with each run's flamegraphs listed, and never overwriting an earlier one. */
object ResultFiles {
    /**
     * An existing results file is never overwritten silently: it is renamed to `<name>.<its last-modified time>.<ext>`
     * (the returned path) before the first new result is written. Also fails early if the directory is not writable.
     * Only the launcher calls this, once per session; within a session the file grows run by run.
     */
    fun keepPrevious(file: String): String? {
        val target = File(file).absoluteFile
        target.parentFile?.mkdirs()
        val dir = target.parentFile
        // A file where the directory should be would only fail at the first write, after a run was measured.
        if (dir != null && !dir.isDirectory) throw IOException("$dir is not a directory")
        if (dir?.canWrite() == false) throw IOException("$dir is not writable")
        // An empty file holds no results (e.g. one a script created for us): nothing to keep.
        if (!target.exists() || target.length() == 0L) return null
        val stamp = DateTimeFormatter.ofPattern(
            "yyyyMMdd-HHmmss",
        ).withZone(ZoneId.systemDefault())
            .format(Instant.ofEpochMilli(target.lastModified()))
        val base = target.name.substringBeforeLast('.', target.name)
        val ext = target.name.substringAfterLast('.', "").let { if (it.isEmpty()) "" else ".$it" }
        var kept = File(target.parentFile, "$base.$stamp$ext")
        var n = 1
        while (kept.exists()) kept = File(target.parentFile, "$base.$stamp-${n++}$ext")
        Files.move(target.toPath(), kept.toPath(), StandardCopyOption.ATOMIC_MOVE)
        // Its runs' own files go with it, or this session's runs would list theirs beside them.
        val files = RunFiles.root(target)
        if (files.isDirectory) Files.move(files.toPath(), RunFiles.root(kept).toPath())
        return File(file).parentFile?.let { File(it, kept.name).path } ?: kept.name
    }

    /** The files each run made: its flamegraphs ([ProfileLayout.FIELD]) and its own files ([RunFiles.FIELD]). */
    class Listed(
        val profiles: (RunResult) -> List<File> = { emptyList() },
        val files: (RunResult) -> List<File> = { emptyList() },
    )

    /**
     * Writes [results] to [file] in [format] through a temporary file, so a reader never sees a half-written file. In
     * JSON, an entry whose run made files lists them ([Listed]; paths relative to the file's directory), so a report
     * reads the graphs and logs of that run and of no other.
     */
    fun write(results: Collection<RunResult>, file: String, format: ResultFormatType, listed: Listed = Listed()) {
        val target = File(file).absoluteFile
        target.parentFile?.mkdirs()
        val temp = File(target.parentFile, ".${target.name}.tmp")
        fun relative(files: List<File>) = files.map {
            it.absoluteFile.relativeTo(target.parentFile).invariantSeparatorsPath
        }
        val fields = mapOf(
            ProfileLayout.FIELD to results.map { relative(listed.profiles(it)) },
            RunFiles.FIELD to results.map { relative(listed.files(it)) },
        )
        if (format != ResultFormatType.JSON || fields.values.all { lists -> lists.all { it.isEmpty() } }) {
            PrintStream(temp, Charsets.UTF_8).use { ResultFormatFactory.getInstance(format, it).writeOut(results) }
        } else {
            val json = ByteArrayOutputStream()
            PrintStream(json, true, Charsets.UTF_8).use { out ->
                ResultFormatFactory.getInstance(format, out).writeOut(results)
            }
            temp.writeText(withFields(json.toString(Charsets.UTF_8), fields), Charsets.UTF_8)
        }
        Files.move(temp.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
    }

    /** JMH's JSON with each field of [fields] added to the entries (in the same order) whose list is not empty. */
    fun withFields(json: String, fields: Map<String, List<List<String>>>): String {
        val mapper = JsonMapper.builder().build()
        val root = mapper.readTree(json) as ArrayNode
        for ((field, lists) in fields) {
            require(root.size() == lists.size) { "${root.size()} results, ${lists.size} lists of $field" }
            lists.forEachIndexed { i, paths ->
                if (paths.isNotEmpty()) (root[i] as ObjectNode).putArray(field).apply { paths.forEach { add(it) } }
            }
        }
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n"
    }
}
