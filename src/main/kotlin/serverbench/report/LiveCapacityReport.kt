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
        sb.append(String.format(Locale.ROOT, "%.1f min (`%s`).", root["seconds"].asDouble() / 60, file.name))
        sb.append(across(root)).append("\n\n")
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

    /** Which run the rows were compared with, and how steady the machine itself was, where the file says. */
    private fun across(root: JsonNode): String {
        val sb = StringBuilder()
        root["machineNoise"]?.takeIf { it.isNumber }?.let {
            val window = root["machineNoiseWindowSeconds"]?.asDouble() ?: 0.0
            sb.append(
                String.format(Locale.ROOT, " Before the servers started, a memory-bound loop's %.2f s windows", window),
            )
            sb.append(String.format(Locale.ROOT, " spread %.1f %% (sd): the machine's own noise.", 100 * it.asDouble()))
        }
        val rerun = root["rerun"]
        if (rerun != null && rerun.isObject) {
            sb.append(" Each row was compared with the last run of the same jar and command, `${rerun.text("file")}` ")
            sb.append("(${rerun.text("ended")}): a row ")
            sb.append(String.format(Locale.ROOT, "more than %.0f %%", 100 * rerun["limit"].asDouble()))
            sb.append(" apart from it is unstable across sittings.")
        } else if (root["identity"] != null) {
            sb.append(" No earlier run of the same jar and command was beside it: a rerun says whether these ")
            sb.append("capacities hold across sittings.")
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
