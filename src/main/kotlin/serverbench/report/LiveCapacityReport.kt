package serverbench.report

import tools.jackson.databind.JsonNode
import java.io.File
import java.util.Locale

/**
 * A suite's capacities measured live (`<run>-capacity.json`, written by `LiveCapacityMain`): each row's capacity with
 * what "holds" was tested as, and each configuration's ratio of the two stacks with its 95 % interval, from searches
 * run round by round on both at once. The page of a suite whose rows are those searches, or a section beside JMH rows.
 */
object LiveCapacityReport {
    /** The capacity file that goes with the results [json]; it may not exist. */
    fun fileFor(json: File): File = File(json.absoluteFile.parentFile, json.nameWithoutExtension + "-capacity.json")

    /** Its markdown section, or "" without one. */
    fun markdown(file: File): String {
        val (read, instead) = LiveFindingsReport.read(file, "Capacity, measured live")
        val root = read ?: return instead
        val rows = root["rows"]?.takeIf { it.isArray } ?: return ""
        val sb = StringBuilder("\n## Capacity at ${root.text("objective")}, measured live\n\n")
        sb.append("${root.text("test")}. Every server ran at once, each in a process of its own, one load client ")
        sb.append("outside them driving one at a time; stopped: ${root.text("stopped")}, ")
        sb.append(String.format(Locale.ROOT, "%.1f min (`%s`).\n\n", root["seconds"].asDouble() / 60, file.name))
        sb.append("| row | capacity | what held |\n|---|---:|---|\n")
        for (r in rows) {
            val capacity = r["capacity"]?.takeIf { it.isNumber }?.let { rate(it.asDouble()) + " req/s" } ?: "—"
            sb.append(
                "| ${r.text("family")} ${r.text("variant")}, ${r.text("side")} | $capacity | ${r.text("label")} |\n",
            )
        }
        val ratios = root["ratios"]?.takeIf { it.isArray && !it.isEmpty }
        if (ratios != null) {
            sb.append("\n")
            for (r in ratios) sb.append("- ${ratio(r)}\n")
        }
        return sb.toString()
    }

    /** `**Cpu direct**: tomcat ÷ netty capacity 1.083 [1.050, 1.117] **tomcat higher**`. */
    private fun ratio(r: JsonNode): String {
        val label = "**${r.text("family")} ${r.text("variant")}**: ${r.text("a")} ÷ ${r.text("b")} capacity"
        val figure = r["ratio"]?.takeIf { it.isNumber }?.let {
            String.format(Locale.ROOT, " %.3f [%.3f, %.3f]", it.asDouble(), r["low"].asDouble(), r["high"].asDouble())
        } ?: ""
        val verdict = r.text("verdict").takeIf { it != "~" }?.let { " **${r.text("a")} $it**" }
            ?: " (${r.text("why")})"
        return label + figure + verdict
    }

    private fun rate(x: Double) = if (x == Math.floor(x)) "%,d".format(Locale.ROOT, x.toLong()) else "%.1f".format(x)

    private fun JsonNode.text(name: String): String = this[name]?.asString().orEmpty()
}
