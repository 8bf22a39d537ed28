package serverbench.live

import tools.jackson.databind.json.JsonMapper
import tools.jackson.databind.node.ObjectNode
import java.util.Locale

/**
 * One metric of one compared configuration, from its interleaved windows: each side's mean over its windows,
 * head ÷ base with its 95 % interval ([WindowStatistics]), and a verdict only where the interval excludes 1.
 */
class LiveRow(
    val benchmark: String,
    val params: Map<String, String>,
    val metric: Metrics.Metric,
    val base: Double,
    val head: Double,
    val ratio: WindowStatistics.Ratio?,
    val windows: Int,
) {
    val significant: Boolean get() = ratio?.marked == true

    /** faster/slower for req/s, better/worse for the rest, `~` where the interval holds 1 (or there is none). */
    val verdict: String
        get() {
            val r = ratio ?: return "~"
            if (!r.marked) return "~"
            val up = r.ratio > 1
            return when {
                metric.name == Metrics.THROUGHPUT -> if (up) "faster" else "slower"
                up == metric.higherIsBetter -> "better"
                else -> "worse"
            }
        }

    companion object {
        /** The rows of one configuration's [windows], every compared metric that both sides have. */
        fun of(benchmark: String, params: Map<String, String>, windows: List<Window>): List<LiveRow> =
            Metrics.COMPARED.mapNotNull { m ->
                val base = windows.filter { it.side == Side.BASE }.mapNotNull { it.value(m.name) }
                val head = windows.filter { it.side == Side.HEAD }.mapNotNull { it.value(m.name) }
                if (base.isEmpty() || head.isEmpty()) return@mapNotNull null
                LiveRow(
                    benchmark,
                    params,
                    m,
                    base.average(),
                    head.average(),
                    WindowStatistics.ratio(windows, m.name),
                    minOf(base.size, head.size),
                )
            }

        /** What the interval rests on, for a table's note and the JSON's `test`. */
        fun test(plan: LivePlan, blocks: Int?): String =
            "interleaved ${seconds(plan.windowNanos)} s windows (${seconds(plan.settleNanos)} s dropped after each " +
                "switch), ${plan.pairs} process pair${if (plan.pairs == 1) "" else "s"}" +
                (if (plan.generations > 1) " (${plan.atOnce} live at a time)" else "") +
                (blocks?.let { ", $it blocks a pair" } ?: "") +
                ", 95 % interval (t over ABBA blocks, the pairs a random effect" +
                (if (plan.pairs == 1) "; one server a side, so a process's own luck is not in it" else "") + ")"

        private fun seconds(nanos: Long) = String.format(Locale.ROOT, "%.2g", nanos / 1e9)

        /** The rows as markdown, with [note] (how they were measured) above them. */
        fun markdown(rows: List<LiveRow>, base: String, head: String, note: String): String {
            val sb = StringBuilder("## Comparison\n\nbase: $base  \nhead: $head  \n$note\n\n")
            val varying = rows.flatMap { it.params.keys }.distinct().filter { k ->
                rows.map { it.params[k] }.distinct().size > 1
            }
            val paramsColumn = varying.isNotEmpty()
            sb.append("| benchmark | ${if (paramsColumn) "params | " else ""}metric | base | head | head ÷ base ")
            sb.append("| 95 % interval | verdict | windows a side |\n")
            sb.append("|---|${if (paramsColumn) "---|" else ""}---|--:|--:|--:|:-:|:-:|--:|\n")
            for (r in rows) {
                val name = r.benchmark.split('.').takeLast(2).joinToString(".")
                val params = varying.joinToString(", ") { "$it=${r.params[it]}" }
                val interval = r.ratio?.let { "${fmt(it.low)} – ${fmt(it.high)}" } ?: "–"
                val verdict = if (r.significant) "**${r.verdict}**" else "~"
                sb.append(
                    "| $name | ${if (paramsColumn) "$params | " else ""}${r.metric.label} | ${num(r.base)} | " +
                        "${num(r.head)} | ${r.ratio?.let { fmt(it.ratio) } ?: "–"} | $interval | $verdict | " +
                        "${r.windows} |\n",
                )
            }
            return sb.append("\n").toString()
        }

        /** The rows as JSON, the fields `scripts/compare`'s fork mode writes where they mean the same. */
        fun json(rows: List<LiveRow>, test: String): String {
            val mapper = JsonMapper.builder().build()
            val array = mapper.createArrayNode()
            for (r in rows) {
                val o = array.addObject()
                o.put("benchmark", r.benchmark)
                val params = o.putObject("params")
                r.params.forEach { (k, v) -> params.put(k, v) }
                o.put("metric", r.metric.name)
                o.put("unit", r.metric.unit)
                number(o, "base", r.base)
                number(o, "head", r.head)
                number(o, "ratio", r.ratio?.ratio)
                number(o, "ciLow", r.ratio?.low)
                number(o, "ciHigh", r.ratio?.high)
                o.putNull("p")
                o.put("level", WindowStatistics.LEVEL)
                o.put("significant", r.significant)
                o.put("verdict", r.verdict)
                o.put("windows", r.windows)
                o.put("pairs", r.ratio?.pairs ?: 0)
                o.put("blocks", r.ratio?.blocks ?: 0)
                number(o, "minDetectable", r.ratio?.halfWidth)
                number(o, "processSpread", r.ratio?.processSpread)
                o.put("test", test)
            }
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(array) + "\n"
        }

        private fun number(o: ObjectNode, name: String, x: Double?) {
            if (x != null && x.isFinite()) o.put(name, x) else o.putNull(name)
        }

        private fun fmt(x: Double) = String.format(Locale.ROOT, "%.3f", x)

        private fun num(x: Double) = when {
            x >= 100 -> String.format(Locale.ROOT, "%,.0f", x)
            x >= 1 -> String.format(Locale.ROOT, "%.2f", x)
            else -> String.format(Locale.ROOT, "%.4f", x)
        }
    }
}
