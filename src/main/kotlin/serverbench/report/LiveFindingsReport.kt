package serverbench.report

import tools.jackson.core.JacksonException
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.util.Locale

/**
 * The findings a suite measured live (`<run>-findings.json`, written by `LiveFindingsMain`): each configuration's
 * ratio of the two stacks with its 95 % interval, read in the same minutes on both sides. Rendered above the JMH
 * rows' own findings, which rank rows measured one after another.
 */
object LiveFindingsReport {
    /** The findings file that goes with the results [json]; it may not exist. */
    fun fileFor(json: File): File = File(json.absoluteFile.parentFile, json.nameWithoutExtension + "-findings.json")

    /** Its markdown section, or "" without one. */
    fun markdown(file: File): String {
        val (read, instead) = read(file, "Findings, measured live")
        val rows = read ?: return instead
        if (!rows.isArray || rows.isEmpty) return ""
        val all = (0 until rows.size()).map { rows[it] }
        val first = all.first()
        val a = first.text("a")
        val b = first.text("b")
        val sb = StringBuilder("\n## Findings, measured live: $a ÷ $b\n\n")
        sb.append("${first.text("test")}. Both stacks' servers ran at once, each in a process of its own, one load ")
        sb.append("client outside them driving one at a time; a verdict only where the interval excludes 1 ")
        sb.append("(`${file.name}`).\n\n")
        for ((label, of) in all.groupBy { "${it.text("family")} ${it.text("variant")}" }) {
            val parts = of.mapNotNull { r -> part(r) }
            sb.append("- **$label**: $a ÷ $b ${parts.joinToString("; ")}\n")
        }
        return sb.toString()
    }

    private fun part(r: JsonNode): String? {
        val ratio = r["ratio"]?.takeIf { it.isNumber }?.asDouble() ?: return null
        val metric = when (r.text("metric")) {
            "score" -> "req/s"
            "server.cpuPerReq" -> "server CPU/req"
            "latency.p50" -> "p50"
            "latency.p99" -> "p99"
            else -> r.text("metric")
        }
        val verdict = r.text("verdict").takeIf { it != "~" }?.let { " **${r.text("a")} $it**" } ?: ""
        return String.format(
            Locale.ROOT,
            "%s %.3f [%.3f, %.3f]%s",
            metric,
            ratio,
            r["low"].asDouble(),
            r["high"].asDouble(),
            verdict,
        )
    }

    private fun JsonNode.text(name: String): String = this[name]?.asString().orEmpty()

    /**
     * A live measurement's file beside the results: its JSON, or null and what the section says instead ("" without
     * the file; under [title], why it could not be read).
     */
    internal fun read(file: File, title: String): Pair<JsonNode?, String> {
        if (!file.isFile) return null to ""
        return try {
            JsonMapper.builder().build().readTree(file) to ""
        } catch (e: JacksonException) {
            null to "\n## $title\n\n${file.name} could not be read: ${e.originalMessage}\n"
        }
    }
}
