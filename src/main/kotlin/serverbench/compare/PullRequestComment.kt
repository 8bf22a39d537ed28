@file:JvmName("PullRequestComment")

package serverbench.compare

import joptsimple.OptionException
import joptsimple.OptionParser
import joptsimple.OptionSpec
import serverbench.metrics.MetricCatalogue
import serverbench.profile.ProfileLayout
import serverbench.report.BenchmarkResult
import serverbench.report.Flamegraphs
import serverbench.report.Results
import serverbench.report.TopFrames
import tools.jackson.core.JacksonException
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.io.FileDescriptor
import java.io.FileOutputStream
import java.io.IOException
import java.io.PrintStream
import java.math.BigDecimal
import java.math.RoundingMode
import java.util.jar.JarFile
import kotlin.system.exitProcess

private const val USAGE = "usage: java -cp benchmarks.jar serverbench.compare.PullRequestComment --artifacts DIR " +
    "--base SHA --head SHA --what TEXT [--reproduce CMD] [--run-url URL] [--service-jar FILE] [--title TEXT]"

/**
 * A comparison's pull-request comment, in markdown on stdout, from the folder of its artifacts: the comment of both
 * pull-request scripts, scripts/pr-compare for serverbench's own and a service repository's serverbench-pr, where
 * only this jar is at hand; with the top frames of each side and the flamegraphs when the run was profiled. Exit 0
 * when written, whatever the folder holds (an interrupted run's comment says what is there); 2 on bad input.
 */
fun main(args: Array<String>) {
    // UTF-8 whatever the locale: the comment has ÷, – and µ, and GitHub reads UTF-8.
    val out = PrintStream(FileOutputStream(FileDescriptor.out), true, Charsets.UTF_8)
    exitProcess(CommentWriter(out, System.err).run(args))
}

/** [run]: the comment of one comparison's artifacts on [out]; a refusal, one line, on [err]. */
class CommentWriter(private val out: PrintStream, private val err: PrintStream) {
    private class Refused(message: String) : Exception(message)

    fun run(args: Array<String>): Int = try {
        val options = Options(args)
        if (options.help) {
            out.println(USAGE)
        } else {
            out.print(CommentText(options.inputs(err)).render())
        }
        0
    } catch (e: Refused) {
        err.println("pr-comment: ${e.message}")
        2
    } catch (e: OptionException) {
        // jopt's own message names the option: an unknown one, or one given without its value.
        err.println("pr-comment: ${e.message?.lineSequence()?.first()}")
        2
    }

    /** What the comment is written from. */
    class Inputs(
        val artifacts: File,
        val base: String,
        val head: String,
        val what: String,
        val title: String,
        val reproduce: String?,
        val runUrl: String?,
        /** The service's own code as frames name it (`com/example/`), from --service-jar; null without one. */
        val ownPrefix: String?,
    )

    private class Options(args: Array<String>) {
        private val parser = OptionParser(false)
        private val artifactsSpec = parser.accepts("artifacts").withRequiredArg()
        private val baseSpec = parser.accepts("base").withRequiredArg()
        private val headSpec = parser.accepts("head").withRequiredArg()
        private val whatSpec = parser.accepts("what").withRequiredArg()
        private val reproduceSpec = parser.accepts("reproduce").withRequiredArg()
        private val runUrlSpec = parser.accepts("run-url").withRequiredArg()
        private val serviceJarSpec = parser.accepts("service-jar").withRequiredArg()
        private val titleSpec = parser.accepts("title").withRequiredArg().defaultsTo("serverbench")
        private val helpSpec = parser.acceptsAll(listOf("h", "help"))
        private val set = parser.parse(*args)

        val help: Boolean get() = set.has(helpSpec)

        fun inputs(err: PrintStream): Inputs {
            set.nonOptionArguments().firstOrNull()?.let {
                throw Refused("unexpected argument '$it': every value follows its option (--what \"TEXT\")")
            }
            val dir = set.valueOf(artifactsSpec) ?: throw Refused("--artifacts DIR is missing: the run's artifacts")
            val artifacts = File(dir).absoluteFile.normalize()
            if (!artifacts.isDirectory) throw Refused("--artifacts $dir: no such directory")
            fun required(spec: OptionSpec<String>, name: String, what: String) =
                set.valueOf(spec)?.takeIf { it.isNotBlank() } ?: throw Refused("--$name is missing: $what")
            return Inputs(
                artifacts,
                required(baseSpec, "base", "the base commit's sha"),
                required(headSpec, "head", "the head commit's sha"),
                required(whatSpec, "what", "what was compared, the comment's first line"),
                set.valueOf(titleSpec),
                set.valueOf(reproduceSpec)?.takeIf { it.isNotBlank() },
                set.valueOf(runUrlSpec)?.takeIf { it.isNotBlank() },
                set.valueOf(serviceJarSpec)?.let { ownPrefix(File(it), err) },
            )
        }
    }

    companion object {
        /** The comment's first line, by which the workflows find the comment to update. */
        const val MARKER = "<!-- serverbench-pr -->"

        /**
         * The service's own package as frames name it, the first two parts (`com/example/`, as [TopFrames.ownCode]):
         * from the jar's `Start-Class` (a Spring Boot jar's `Main-Class` is Boot's launcher), else its `Main-Class`.
         * A jar that cannot be read only costs the "Your code" line, said on [err]: a failed run still gets its
         * comment.
         */
        fun ownPrefix(jar: File, err: PrintStream): String? {
            if (!jar.isFile) {
                err.println("pr-comment: --service-jar ${jar.path}: no such file; the top frames name no own code")
                return null
            }
            val main = try {
                JarFile(jar).use { it.manifest?.mainAttributes }
                    ?.let { it.getValue("Start-Class") ?: it.getValue("Main-Class") }
            } catch (e: IOException) {
                err.println(
                    "pr-comment: --service-jar ${jar.path}: not read (${e.message}); the top frames name no own code",
                )
                return null
            }
            val parts = main?.substringBeforeLast('.', "")?.split('.')?.filter { it.isNotEmpty() }.orEmpty()
            if (parts.isEmpty()) {
                err.println("pr-comment: --service-jar ${jar.path}: no Start-Class or Main-Class in a package")
                return null
            }
            return parts.take(2).joinToString("/", postfix = "/")
        }
    }
}

/** The comment's text, section by section, within GitHub's limit. */
private class CommentText(private val inputs: CommentWriter.Inputs) {
    private val dir = inputs.artifacts
    private val forks = Fork.all(File(dir, "forks"))

    fun render(): String {
        val frames = TopFramesSection(dir, forks, inputs.ownPrefix, inputs.runUrl).text()
        val table = File(dir, "compare.md").takeIf { it.isFile }?.readText()
            ?.replace(Regex("^## ", RegexOption.MULTILINE), "### ")?.trimEnd()?.plus("\n\n").orEmpty()
        // What goes first when the comment is too long: the top frames, then the table; both are in the artifact.
        val framesCut = if (frames.isEmpty()) "" else "$FRAMES_HEADING\n\n$FRAMES_CUT\n\n"
        val tableCut = if (table.isEmpty()) "" else "$TABLE_CUT\n\n"
        val attempts = listOf(compose(table, frames), compose(table, framesCut), compose(tableCut, framesCut))
        return attempts.firstOrNull { it.length <= GITHUB_LIMIT } ?: truncated(attempts.last())
    }

    private fun compose(table: String, frames: String): String {
        val sb = StringBuilder()
        sb.append("${CommentWriter.MARKER}\n")
        sb.append("## ${inputs.title}: head `${inputs.head.take(SHORT_SHA)}` against base ")
        sb.append("`${inputs.base.take(SHORT_SHA)}`\n\n")
        sb.append("${inputs.what.trimEnd()}\n\n")
        sb.append("### Findings\n\n${Findings.of(File(dir, "compare.json"))}\n\n")
        sb.append(table)
        sb.append(frames)
        val where = inputs.runUrl?.let { "[the workflow run]($it)" } ?: "`${dir.path}`"
        sb.append("Artifacts in $where: ${contents()}.\n\n")
        sb.append("<details><summary>Machine, and the command that reproduces this</summary>\n\n")
        sb.append(machine())
        inputs.reproduce?.let { sb.append("\nFrom a checkout holding both commits:\n\n```sh\n$it\n```\n") }
        sb.append("\n</details>\n")
        return sb.toString()
    }

    /** The last resort (thousands of marked rows): cut at a line, saying so. */
    private fun truncated(text: String): String {
        val note = "\n\n… $TRUNCATED\n"
        val end = text.lastIndexOf('\n', GITHUB_LIMIT - note.length)
        return text.substring(0, end) + note
    }

    /** What `forks/` holds: a live comparison's windows and server logs, or each fork's results. */
    private fun forksFolder(): String =
        if (File(dir, "forks").listFiles { f -> f.name.startsWith("live-") }.orEmpty().isNotEmpty()) {
            "`forks/` (each configuration's windows, `live-N/windows.csv`, and each server's log" +
                if (File(dir, "forks").walkTopDown().maxDepth(2).any { it.name == "profiles" }) {
                    "; each side's flamegraphs, `live-N/profiles/`)"
                } else {
                    ")"
                }
        } else {
            "`forks/` (each fork's JMH results and log)"
        }

    /** What the artifacts folder holds, as the run left it. */
    private fun contents(): String {
        fun file(name: String) = File(dir, name).isFile
        fun folder(name: String) = File(dir, name).isDirectory
        val items = buildList {
            if (file("compare.json")) add("`compare.json` (the verdict for tools)")
            if (file("compare.md")) add("`compare.md` (the table)")
            if (folder("forks")) add(forksFolder())
            if (file("report.md")) {
                add(
                    "`report.md` (the first fork of each side: tables, charts, flamegraph links; its marks compare " +
                        "two single forks)",
                )
            }
            if (folder("profiles")) add("`profiles/` (flamegraphs)")
            if (folder("head-tree")) add("`head-tree/` (the workload as sent)")
            dir.listFiles { f -> f.isFile && f.name.startsWith("build-") && f.name.endsWith(".log") }
                .orEmpty().map { it.name }.sorted().forEach { add("`$it`") }
            if (file("compare.log")) add("`compare.log` (its progress lines)")
        }
        return if (items.isEmpty()) "nothing (the run left no files)" else items.joinToString(", ")
    }

    /** This machine and JVM (the comment is written where compare ran), and the JDK the forks recorded. */
    private fun machine(): String {
        val cores = Runtime.getRuntime().availableProcessors()
        val model = try {
            File("/proc/cpuinfo").takeIf { it.canRead() }?.useLines { lines ->
                lines.firstOrNull { it.startsWith("model name") }?.substringAfter(':')?.trim()
            }
        } catch (e: IOException) {
            null
        }
        val os = listOf("os.name", "os.version", "os.arch").joinToString(" ") { System.getProperty(it) }
        val jvm = "${System.getProperty("java.vm.name")} ${System.getProperty("java.runtime.version")}"
        val forksJdk = forks.flatMap { it.rows.orEmpty() }.map { it.jdkVersion }.filter { it.isNotEmpty() }.distinct()
        return "- $cores cores${model?.let { " ($it)" }.orEmpty()}, $os\n- Java: $jvm\n" +
            if (forksJdk.isEmpty()) "" else "- the forks' JDK, as JMH recorded it: ${forksJdk.joinToString(", ")}\n"
    }

    companion object {

        /** GitHub refuses a comment body longer than this. */
        const val GITHUB_LIMIT = 65_536
        const val SHORT_SHA = 7
        const val FRAMES_HEADING = "### Where the time went, each side"
        const val FRAMES_CUT = "Left out: with it this comment would pass GitHub's 65,536 characters. Each fork's " +
            "profiles are in the run's artifact (`profiles/`; each fork's JSON in `forks/` lists its own)."
        const val TABLE_CUT = "The table is left out: with it this comment would pass GitHub's 65,536 characters. " +
            "It is `compare.md` in the run's artifact."
        const val TRUNCATED = "cut here: GitHub takes at most 65,536 characters. The whole verdict is `compare.json` " +
            "in the run's artifact."
    }
}

/** One fork's result file, `forks/base-N.json` or `forks/head-N.json`; [rows] null when it cannot be read. */
private class Fork(val side: String, val n: Int, val file: File, val rows: List<BenchmarkResult>?) {
    val profiled: Boolean get() = rows.orEmpty().any { r ->
        r.profiles.any { it.extension == "collapsed" && it.isFile }
    }

    companion object {
        private val NAME = Regex("(base|head)-(\\d+)\\.json")

        /** The forks in [dir], base then head, each side by number (base-2 before base-10). */
        fun all(dir: File): List<Fork> = dir.listFiles().orEmpty().mapNotNull { f ->
            val m = NAME.matchEntire(f.name)?.takeIf { f.isFile } ?: return@mapNotNull null
            // A fork that died mid-write leaves a file JMH did not finish: it is listed, not read.
            val rows = try {
                Results.read(f)
            } catch (e: IllegalArgumentException) {
                null
            }
            Fork(m.groupValues[1], m.groupValues[2].toInt(), f, rows)
        }.sortedWith(compareBy({ it.side }, { it.n }))
    }
}

/**
 * Where the time went on each side: a live run's servers, each side's summed ([live]); or fork by fork the top frames
 * of the first profiled fork of each side (one fork's samples, as report.md shows them; the verdict is the table's);
 * and the paths of their flamegraphs in the artifact.
 */
private class TopFramesSection(
    private val dir: File,
    private val forks: List<Fork>,
    private val ownPrefix: String?,
    private val runUrl: String?,
) {
    fun text(): String {
        live()?.let { return it }
        val shown = SIDES.mapNotNull { side -> forks.firstOrNull { it.side == side && it.profiled } }
        val graphs = forks.associateWith { f -> f.rows.orEmpty().flatMap { Flamegraphs.links(it, dir) }.distinct() }
        if (shown.isEmpty() && graphs.values.all { it.isEmpty() }) return ""
        val sb = StringBuilder("${CommentText.FRAMES_HEADING}\n\n")
        sb.append("The first profiled fork of each side, its own samples: a look at where each side spends its time, ")
        sb.append("not a verdict (that is the table's).\n")
        for (fork in shown) {
            sb.append("\n#### ${fork.side} (`forks/${fork.file.name}`)\n")
            // Its headings one level below this fork's.
            sb.append(TopFrames.markdown(fork.rows.orEmpty(), ownPrefix).replace(Regex("(?m)^### "), "##### "))
        }
        SIDES.filter { side -> shown.none { it.side == side } }.forEach {
            sb.append("\nNo $it fork left collapsed stacks.\n")
        }
        val listed = shown.ifEmpty {
            SIDES.mapNotNull { s -> forks.firstOrNull { it.side == s && graphs[it]!!.any() } }
        }
        val lines = listed.filter { graphs[it]!!.isNotEmpty() }.map { fork ->
            "- ${fork.side} (`forks/${fork.file.name}`): " + graphs[fork]!!.joinToString(", ") { "`$it`" }
        }
        val others = graphs.filterKeys { it !in listed }.values.sumOf { it.size }
        if (lines.isNotEmpty() || others > 0) {
            sb.append("\nFlamegraphs in the run's artifact")
            sb.append(runUrl?.let { " ([the workflow run]($it))" }.orEmpty()).append(":\n\n")
            lines.forEach { sb.append("$it\n") }
            if (others > 0) sb.append("- and $others of the other forks (each fork's JSON lists its own)\n")
        }
        return sb.append("\n").toString()
    }

    /**
     * A live comparison's profiles (`forks/live-N/profiles/`, [serverbench.profile.ServerProfiles]): each side's
     * servers summed from the end of warmup on, the top frames of each, and the graphs with their difference;
     * null when the run was not profiled live.
     */
    private fun live(): String? {
        val rows = File(dir, "forks").listFiles { f -> f.isDirectory && f.name.startsWith("live-") }.orEmpty()
            .sortedBy { it.name.removePrefix("live-").toIntOrNull() ?: 0 }
            .filter { File(it, "profiles").isDirectory }
        if (rows.isEmpty()) return null
        val sb = StringBuilder("${CommentText.FRAMES_HEADING}\n\n")
        sb.append("Every server sampled from the end of its warmup on (`-prof flame`), each side's processes summed: ")
        sb.append("where each side spends its time, not a verdict (that is the table's).\n")
        val graphs = ArrayList<String>()
        for (row in rows) {
            val profiles = File(row, "profiles")
            for (side in SIDES) {
                val files = File(profiles, side).listFiles { f -> f.extension == "collapsed" }.orEmpty().sorted()
                if (files.isEmpty()) {
                    sb.append("\nNo $side server of `${row.name}` kept samples.\n")
                    continue
                }
                for (f in files) {
                    val path = f.relativeTo(dir).invariantSeparatorsPath
                    val heading = "$side, ${ProfileLayout.event(f)} samples (`$path`)"
                    sb.append(TopFrames.block(listOf(f), heading, ownPrefix))
                }
            }
            graphs += profiles.walkTopDown().filter { it.isFile && it.extension == "html" }
                .map { it.relativeTo(dir).invariantSeparatorsPath }.sorted()
        }
        if (graphs.isNotEmpty()) {
            sb.append("\nFlamegraphs in the run's artifact")
            sb.append(runUrl?.let { " ([the workflow run]($it))" }.orEmpty())
            sb.append(" (`-diff.html`: the differential graph base → head, each frame coloured by how its share ")
            sb.append("changed):\n\n")
            graphs.forEach { sb.append("- `$it`\n") }
        }
        return sb.append("\n").toString()
    }

    private companion object {
        val SIDES = listOf("base", "head")
    }
}

/** The rows compare marked, from its JSON. */
private object Findings {
    private const val NONE = "**No comparison**: no benchmark completed on both sides; each fork's log is in the " +
        "artifacts (`forks/`)."

    fun of(file: File): String {
        if (!file.isFile) return NONE
        val rows = try {
            JsonMapper.builder().build().readTree(file)
        } catch (e: JacksonException) {
            return "**`compare.json` could not be read** (${e.originalMessage}): the table's last column marks rows."
        }
        if (!rows.isArray || rows.size() == 0) return NONE
        val marked = (0 until rows.size()).map { rows[it] }.filter { it["significant"]?.asBoolean() == true }
        if (marked.isEmpty()) {
            return "**No difference marked** in ${rows.size()} rows. " + if (rows[0]["windows"] != null) {
                "Each interval's half-width is the smallest change this run could have shown."
            } else {
                "The *detectable* column says how small a change these forks could have shown."
            }
        }
        return "**${marked.size} of ${rows.size()} rows marked:**\n\n" + marked.joinToString("\n") { bullet(it) }
    }

    private fun bullet(row: JsonNode): String {
        val metric = row["metric"]?.asString().orEmpty()
        val label = MetricCatalogue.of(metric)?.headline?.label ?: metric
        val benchmark = row["benchmark"]?.asString().orEmpty().split('.').takeLast(2).joinToString(".")
        val params = row["params"]?.properties()?.joinToString(", ") { (k, v) -> "$k=${v.asString()}" }.orEmpty()
        return "- **${row["verdict"]?.asString()}**: $label of $benchmark" +
            (if (params.isEmpty()) "" else " ($params)") +
            ": head ÷ base ${r(row["ratio"])}, 95 % interval ${r(row["ciLow"])} – ${r(row["ciHigh"])}" +
            if (row["p"]?.isNumber == true) ", p ${p(row["p"])}" else " (${row["test"]?.asString() ?: "live"})"
    }

    private fun number(node: JsonNode?): Double? = node?.takeIf { it.isNumber }?.asDouble()

    /** Three decimals, trailing zeros dropped. */
    private fun r(node: JsonNode?): String = number(node)?.let {
        BigDecimal(it).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString()
    } ?: "–"

    private fun p(node: JsonNode?): String {
        val p = number(node) ?: return "–"
        return if (p < 0.001) "< 0.001" else r(node)
    }
}
