package serverbench.profile

import org.openjdk.jmh.profile.ProfilerException
import java.io.File
import java.time.Instant

/**
 * `-prof flame` in a live comparison: async-profiler attached to every side's server JVM ([AttachedProfiler]), sampling
 * each server from the end of its generation's warmup to the end of its generation: every measured window, and
 * between them the server idling while another process is driven (for `cpu` that adds only its own background work:
 * an idle server burns little CPU; a `wall` graph counts its idle threads too). Not per window: each command is an
 * attach, which would cost a large share of every window's time (docs/measurements.md). Both sides are sampled alike,
 * so the verdict is measured under the same profiling on both.
 *
 * Each server's samples go to `<dir>/<server>/<event>.collapsed` when its generation ends; [graphs] then sums each
 * side's processes into `<dir>/<side>/<event>.{collapsed,html,txt}` and writes the differential graph base → head,
 * `<dir>/<event>-diff.html` ([Converter]).
 */
class ServerProfiles(
    initLine: String,
    private val dir: File,
    private val benchmark: String,
    private val params: Map<String, String>,
) {
    private val options = FlameOptions(initLine)

    init {
        val refused = when {
            options.help != null -> "help"
            options.overhead -> "overhead"
            options.pid != null -> "pid"
            options.session != null -> "session"
            else -> null
        }
        if (refused != null) {
            throw ProfilerException(
                "flame: $refused is for fork by fork (--mode forks); a live comparison takes event, interval and " +
                    "cstack",
            )
        }
        SamplingEngines.unavailable(options.event ?: "cpu")?.let { throw ProfilerException(it) }
    }

    /** The event sampled: the option's, or the benchmark's default ([FlameProfiler.defaultEvent]). */
    val event: String = options.event ?: FlameProfiler.defaultEvent(benchmark)

    private class Target(val sampler: AttachedProfiler, var started: Boolean = false)

    private val targets = LinkedHashMap<String, Target>()

    /** [name]'s JVM, [pid], profiled from now on; its first attach, made here, says at once whether it can be. */
    fun attach(name: String, pid: Long) {
        val sampler = AttachedProfiler(pid)
        sampler.version
        targets[name] = Target(sampler)
    }

    /** Sampling starts on [name]: once its generation is warm, before its first measured window. */
    fun start(name: String) {
        val t = targets[name] ?: return
        t.sampler.execute("start" + options.sampling(event))
        t.started = true
    }

    /**
     * [name]'s samples written to `<dir>/<name>/<event>.collapsed`, before its server stops; returns null, or the
     * one line that says why they could not be (the server gone, say): the measurement's windows stand without them.
     */
    fun finish(name: String): String? {
        val t = targets.remove(name)?.takeIf { it.started } ?: return null
        val out = File(File(dir, name), "$event.collapsed")
        out.parentFile.mkdirs()
        return try {
            t.sampler.execute("stop,collapsed,file=${out.absolutePath}")
            null
        } catch (e: IllegalStateException) {
            "$name: no samples kept (${e.message})"
        }
    }

    /**
     * Each side's graph from its servers' samples, and the differential graph base → head when both have samples;
     * returns the files written (HTML and collapsed), for the comparison to list.
     */
    fun graphs(): List<File> {
        // Each server's own folder (base-0, head-0, ...), not the sides' sums.
        val bySide = dir.listFiles { f -> f.isDirectory && '-' in f.name }.orEmpty()
            .mapNotNull { d -> File(d, "$event.collapsed").takeIf { it.isFile && it.length() > 0 } }
            .groupBy { it.parentFile.name.substringBefore('-') }
            .filterKeys { it in SIDES }
        val made = ArrayList<File>()
        val summed = SIDES.mapNotNull { side ->
            val files = bySide[side] ?: return@mapNotNull null
            val sideDir = File(dir, side).apply { mkdirs() }
            val collapsed = Converter.concatenated(files.sortedBy { it.path }, File(sideDir, "$event.collapsed"))
            val html = File(sideDir, "$event.html")
            val title = ProfileLayout.htmlTitle(ProfileLayout.title(benchmark, params, event, side))
            Converter.flamegraph(collapsed, html, title)
            File(sideDir, "$event.txt").writeText(notes(side, files))
            made += html
            made += collapsed
            side to collapsed
        }.toMap()
        val base = summed["base"]
        val head = summed["head"]
        if (base != null && head != null) {
            val diff = File(dir, "$event-diff.html")
            Converter.diff(
                base,
                head,
                diff,
                ProfileLayout.htmlTitle(ProfileLayout.title(benchmark, params, event, "base → head")),
            )
            made += diff
        }
        return made
    }

    private fun notes(side: String, files: List<File>): String = listOfNotNull(
        "benchmark: $benchmark",
        "params: ${params.entries.joinToString(", ") { "${it.key}=${it.value}" }}",
        "side: $side, the samples of ${files.size} server process${if (files.size == 1) "" else "es"} " +
            "(${files.joinToString { it.parentFile.name }}) summed",
        "event: $event${options.interval?.let { " (interval $it)" } ?: ""}",
        "engine: ${SamplingEngines.engine(event)}",
        "threads: every thread of each server's JVM, from the end of warmup to the end of its generation (the load " +
            "client runs elsewhere)",
        "written: ${Instant.now()}",
    ).joinToString("\n", postfix = "\n")

    companion object {
        private val SIDES = listOf("base", "head")
    }
}
