package serverbench.compare

import serverbench.metrics.MetricCatalogue
import tools.jackson.databind.json.JsonMapper
import tools.jackson.databind.node.ObjectNode
import java.io.File
import java.math.BigDecimal
import java.math.MathContext
import java.util.Locale
import kotlin.math.roundToInt

/** A comparison as a reviewer reads it (markdown) and as a tool or CI reads it (JSON, one object per row). */
object ComparisonOutput {

    fun markdown(comparison: Comparison, base: String, head: String, forks: String): String {
        val rows = comparison.rows
        val sb = StringBuilder()
        sb.append("## Comparison: head ÷ base, forks interleaved in one sitting\n\n")
        sb.append("- base: $base\n- head: $head\n- $forks\n")
        // Parameters every row shares go here once; the table shows the ones that tell rows apart.
        val varying = rows.flatMap {
            it.params.keys
        }.distinct().filter { k -> rows.distinctBy { it.params[k] }.size > 1 }
        val shared = rows.firstOrNull()?.params?.filterKeys { it !in varying }.orEmpty()
        if (shared.isNotEmpty()) sb.append("- every row: ${shared.entries.joinToString(", ")}\n")
        sb.append(
            "\nBase and head: the mean of each side's fork figures. Head ÷ base: the median of the ratios of every " +
                "head fork to every base fork (Hodges-Lehmann), with the interval that inverts the " +
                "Mann-Whitney U test at 95 % (it holds the true ratio at least 95 % of the time), and the test's " +
                "exact p. A row is marked only where p < 0.05 and the interval excludes 1 (`~`: no " +
                "difference this run can tell). \"Detectable\": how far from 1 head ÷ base had to lie for these " +
                "forks, spread as they fell, to be marked (its distance to the farther end of its interval; `–`: " +
                "too few forks for any mark).${levels(rows)}\n\n",
        )
        comparison.clientThreads?.let { sb.append("$it\n\n") }
        val notCompared = comparison.notCompared.joinToString("") { "\n- $it" }
        if (rows.isEmpty()) {
            if (notCompared.isNotEmpty()) return sb.append("No row compared:$notCompared\n").toString()
            return sb.append("No benchmark completed on both sides.\n").toString()
        }
        sb.append("| benchmark | ${if (varying.isEmpty()) "" else "params | "}metric | base | head | head ÷ base ")
        sb.append("| 95 % interval | p | forks × iterations | detectable | |\n")
        sb.append("|---|${if (varying.isEmpty()) "" else "---|"}---|--:|--:|--:|:-:|--:|--:|--:|---|\n")
        for (r in rows) sb.append(tableRow(r, varying))
        if (notCompared.isNotEmpty()) sb.append("\nNot compared:$notCompared\n")
        forksFor(rows)?.let { sb.append("\n$it\n") }
        return sb.toString()
    }

    /** [r]'s line of the table, with the [varying] parameters when there are any. */
    private fun tableRow(r: Comparison.Row, varying: List<String>): String {
        val name = r.benchmark.substringAfterLast(".benchmarks.")
        val params = varying.mapNotNull { k -> r.params[k]?.let { "$k=$it" } }.joinToString(", ")
        val interval = r.interval?.let { "%.3f – %.3f".format(Locale.ROOT, it.low, it.high) } ?: "unbounded"
        val forksCell = "${r.base.size} + ${r.head.size} × ${r.iterations}" +
            if (r.notSteadyForks > 0) " (${r.notSteadyForks} not steady)" else ""
        val mark = if (r.significant) "**${r.verdict}**" else r.verdict
        return "| $name | ${if (varying.isEmpty()) "" else "$params | "}${r.metric.headline!!.label} | " +
            "${figure(r.baseMean, r.unit)} | ${figure(r.headMean, r.unit)} | " +
            "%.3f | $interval | %s | $forksCell | %s | $mark |\n".format(
                Locale.ROOT,
                r.ratio,
                p(r.p),
                pct(r.minimumDetectable),
            )
    }

    /** The change a comparison should be able to see: a few per cent is what a pull request usually moves. */
    private const val GOAL = 0.05

    /** Counts beyond this are not advised: a sitting of them would take hours. */
    private const val MOST_FORKS = 100

    /**
     * The chance of a mark where the sides do not differ, for each fork count the rows have: the exact test's p
     * takes few values with few forks, so its real level lies below 0.05.
     */
    private fun levels(rows: List<Comparison.Row>): String {
        if (rows.isEmpty()) return ""
        val byForks = rows.groupBy { it.base.size to it.head.size }.map { (forks, same) ->
            val level = same.first().level
            val shown = if (level == 0.0) "0" else "%.2f %%".format(Locale.ROOT, level * 100)
            "$shown (${forks.first} + ${forks.second} forks)"
        }
        return " Where the sides do not differ, a row is marked by chance with probability " +
            byForks.joinToString(", ") + ": the exact test's p takes few values, and this is the largest below 0.05."
    }

    /**
     * Where req/s could not have shown a [GOAL] change: how many forks a side would, from this run's spread, the
     * interval's half-width scaled by the exact test's steps ([ForkStatistics.widthShare]); only counts compare runs.
     */
    private fun forksFor(rows: List<Comparison.Row>): String? {
        val wide = rows.filter { it.metric == MetricCatalogue.THROUGHPUT && it.minimumDetectable > GOAL }
        val worst = wide.maxByOrNull { it.minimumDetectable } ?: return null
        val share = ForkStatistics.widthShare(worst.base.size, worst.head.size)
        val needed = (ForkStatistics.minimumForks..MOST_FORKS).firstOrNull {
            ForkOrder.allowed(it) && worst.minimumDetectable * ForkStatistics.widthShare(it, it) / share <= GOAL
        }
        return "req/s in ${wide.size} of ${rows.count { it.metric == MetricCatalogue.THROUGHPUT }} rows could " +
            "not have shown a ${pct(GOAL).removePrefix("± ")} change (widest ${pct(worst.minimumDetectable)}, " +
            "${worst.benchmark.substringAfterLast(".benchmarks.")}): from this run's spread, " +
            (needed?.let { "about --forks $it would." } ?: "not even --forks $MOST_FORKS would.")
    }

    private fun figure(x: Double, unit: String): String = when {
        unit == "ops/s" -> "%,.0f".format(Locale.ROOT, x)

        x >= 100 -> "%,.0f %s".format(Locale.ROOT, x, unit)

        // Three significant digits: two decimals showed a 20 µs server CPU per request as "0.02 ms" on both sides.
        else -> "%s %s".format(
            Locale.ROOT,
            BigDecimal(x).round(MathContext(3)).stripTrailingZeros().toPlainString(),
            unit,
        )
    }

    private fun p(p: Double) = when {
        p.isNaN() -> "–"
        p < 0.001 -> "< 0.001"
        else -> "%.3f".format(Locale.ROOT, p)
    }

    private fun pct(x: Double) = if (x.isNaN()) "–" else "± ${percent(x)}"

    private fun percent(x: Double) = "${(x * 1000).roundToInt() / 10.0} %"

    /** The verdict for tools: one object per row; numbers JSON cannot hold (no interval, no p) are null. */
    fun json(comparison: Comparison): String {
        val mapper = JsonMapper.builder().build()
        val list = mapper.createArrayNode()
        for (r in comparison.rows) {
            val o = list.addObject()
            o.put("benchmark", r.benchmark)
            val params = o.putObject("params")
            r.params.forEach { (k, v) -> params.put(k, v) }
            o.put("metric", r.metric.name)
            o.put("unit", r.unit)
            number(o, "base", r.baseMean)
            number(o, "head", r.headMean)
            number(o, "ratio", r.ratio)
            number(o, "ciLow", r.interval?.low ?: Double.NaN)
            number(o, "ciHigh", r.interval?.high ?: Double.NaN)
            number(o, "p", r.p)
            o.put("significant", r.significant)
            o.put("verdict", r.verdict)
            o.put("baseForks", r.base.size)
            o.put("headForks", r.head.size)
            o.put("iterations", r.iterations)
            number(o, "minDetectable", r.minimumDetectable)
            o.put("alpha", r.level)
            val forks = o.putObject("forkMeans")
            forks.putArray("base").apply { r.base.forEach { add(it) } }
            forks.putArray("head").apply { r.head.forEach { add(it) } }
        }
        return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(list) + "\n"
    }

    private fun number(o: ObjectNode, name: String, x: Double) {
        if (x.isFinite()) o.put(name, x) else o.putNull(name)
    }

    fun write(file: File, text: String) {
        val tmp = File(file.path + ".tmp")
        tmp.writeText(text)
        check(tmp.renameTo(file)) { "could not write $file" }
    }
}
