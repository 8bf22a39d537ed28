package serverbench.launcher

import org.openjdk.jmh.results.RunResult
import org.openjdk.jmh.results.format.ResultFormatFactory
import org.openjdk.jmh.results.format.ResultFormatType
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
        return File(file).parentFile?.let { File(it, kept.name).path } ?: kept.name
    }

    /**
     * Writes [results] to [file] in [format] through a temporary file, so a reader never sees a half-written file. In
     * JSON, an entry whose run made [profiles] lists them (field [ProfileLayout.FIELD], paths relative to the file's
     * directory), so a report links the graphs of that run and of no other.
     */
    fun write(
        results: Collection<RunResult>,
        file: String,
        format: ResultFormatType,
        profiles: (RunResult) -> List<File> = { emptyList() },
    ) {
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

    /** JMH's JSON with [ProfileLayout.FIELD] added to the entries (in the same order) that have profiles. */
    fun withProfiles(json: String, profiles: List<List<String>>): String {
        val mapper = JsonMapper.builder().build()
        val root = mapper.readTree(json) as ArrayNode
        require(root.size() == profiles.size) { "${root.size()} results, ${profiles.size} profile lists" }
        profiles.forEachIndexed { i, paths ->
            if (paths.isNotEmpty()) {
                (root[i] as ObjectNode).putArray(ProfileLayout.FIELD).apply { paths.forEach { add(it) } }
            }
        }
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n"
    }
}
