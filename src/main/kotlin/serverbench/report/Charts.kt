package serverbench.report

import java.io.File
import java.util.Locale
import kotlin.math.floor
import kotlin.math.log10
import kotlin.math.pow

/**
 * SVG line charts for a family swept over one numeric parameter (e.g. `limit` or `delayMs`): req/s and p99 per
 * variant × server, the charts users otherwise draw by hand. Axes switch to log scale where values span more than a
 * decade. Plain SVG written here (about 100 lines) rather than a charting library: the benchmark jar ships to every
 * machine that runs it, and the charts need only lines, ticks and a legend that render in a GitHub PR.
 */
object Charts {
    private const val W = 720
    private const val H = 420
    private const val LEFT = 80
    private const val RIGHT = 200
    private const val TOP = 40
    private const val BOTTOM = 50
    private val COLORS = listOf("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
        "#bcbd22", "#17becf")

    /** Writes the charts of every swept family into [dir]; returns family -> chart paths relative to [linkBase]. */
    fun write(runs: List<Run>, dir: File, linkBase: File): Map<String, List<String>> {
        val out = LinkedHashMap<String, MutableList<String>>()
        for ((family, familyRuns) in runs.groupBy { it.family }.toSortedMap()) {
            for (param in sweptParams(familyRuns)) {
                for ((metric, label) in listOf(Run.SCORE to "req/s", "latency.p99" to "p99 latency (ms)")) {
                    val series = series(familyRuns, param, metric)
                    if (series.isEmpty()) continue
                    dir.mkdirs()
                    val name = "${family.lowercase()}-$param-${if (metric == Run.SCORE) "throughput" else "p99"}.svg"
                    val file = File(dir, name)
                    file.writeText(svg("$family: $label by $param", param, label, series))
                    out.getOrPut(family) { ArrayList() } += file.absoluteFile.relativeTo(linkBase.absoluteFile).path
                }
            }
        }
        return out
    }

    /** Numeric parameters with at least three values within the family. */
    fun sweptParams(runs: List<Run>): List<String> = runs.flatMap { it.params.keys }.distinct().filter { p ->
        val values = runs.mapNotNull { it.params[p] }.distinct()
        values.size >= 3 && values.all { it.toDoubleOrNull() != null }
    }

    /** Series name -> points (x, y) sorted by x; one series per variant, server and value of the other parameters. */
    fun series(runs: List<Run>, param: String, metric: String): Map<String, List<Pair<Double, Double>>> {
        val varying = runs.flatMap { it.params.keys }.distinct()
            .filter { it != param && it != "server" && runs.map { r -> r.params[it] }.distinct().size > 1 }
        return runs.filter { it.metric(metric)?.score?.isFinite() == true && it.params[param]?.toDoubleOrNull() != null }
            .groupBy { r -> (listOf("${r.variant} ${r.params["server"] ?: ""}".trim()) + varying.map { "$it=${r.params[it]}" }).joinToString(" ") }
            .mapValues { (_, rs) -> rs.map { it.params[param]!!.toDouble() to it.metric(metric)!!.score }.sortedBy { it.first } }
            .filterValues { it.size >= 2 }
            .toSortedMap()
    }

    private class Axis(val min: Double, val max: Double, val log: Boolean, val from: Int, val to: Int) {
        fun at(v: Double): Double {
            val f = if (log) (log10(v) - log10(min)) / (log10(max) - log10(min)) else (v - min) / (max - min)
            return from + f.coerceIn(0.0, 1.0) * (to - from)
        }

        fun ticks(): List<Double> = if (log) {
            (floor(log10(min)).toInt()..floor(log10(max)).toInt() + 1).map { 10.0.pow(it) }.filter { it in min..max }
                .ifEmpty { listOf(min, max) }
        } else {
            (0..4).map { min + (max - min) * it / 4 }
        }

        companion object {
            fun of(values: List<Double>, from: Int, to: Int): Axis {
                val lo = values.min()
                val hi = values.max()
                val log = lo > 0 && hi / lo > 10
                return when {
                    log -> Axis(lo, hi, true, from, to)
                    lo == hi -> Axis(if (lo > 0) 0.0 else lo - 1, hi + 1, false, from, to)
                    else -> Axis(minOf(0.0, lo), hi * 1.05, false, from, to)
                }
            }
        }
    }

    fun svg(title: String, xLabel: String, yLabel: String, series: Map<String, List<Pair<Double, Double>>>): String {
        val points = series.values.flatten()
        val x = Axis.of(points.map { it.first }, LEFT, W - RIGHT)
        val y = Axis.of(points.map { it.second }, H - BOTTOM, TOP)
        val s = StringBuilder()
        s.append("""<svg xmlns="http://www.w3.org/2000/svg" width="$W" height="$H" viewBox="0 0 $W $H" font-family="sans-serif" font-size="12">""").append('\n')
        s.append("""<rect width="$W" height="$H" fill="white"/>""").append('\n')
        s.append("""<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>""").append('\n')
        s.append("""<line x1="$LEFT" y1="${H - BOTTOM}" x2="${W - RIGHT}" y2="${H - BOTTOM}" stroke="black"/>""").append('\n')
        s.append("""<line x1="$LEFT" y1="$TOP" x2="$LEFT" y2="${H - BOTTOM}" stroke="black"/>""").append('\n')
        for (t in x.ticks()) {
            val px = n(x.at(t))
            s.append("""<line x1="$px" y1="${H - BOTTOM}" x2="$px" y2="${H - BOTTOM + 5}" stroke="black"/><text x="$px" y="${H - BOTTOM + 18}" text-anchor="middle">${tick(t)}</text>""").append('\n')
        }
        for (t in y.ticks()) {
            val py = n(y.at(t))
            s.append("""<line x1="$LEFT" y1="$py" x2="${W - RIGHT}" y2="$py" stroke="#ddd"/><text x="${LEFT - 6}" y="$py" text-anchor="end" dominant-baseline="middle">${tick(t)}</text>""").append('\n')
        }
        s.append("""<text x="${(LEFT + W - RIGHT) / 2}" y="${H - 12}" text-anchor="middle">${esc(xLabel)}${if (x.log) " (log)" else ""}</text>""").append('\n')
        s.append("""<text x="16" y="${(TOP + H - BOTTOM) / 2}" text-anchor="middle" transform="rotate(-90 16 ${(TOP + H - BOTTOM) / 2})">${esc(yLabel)}${if (y.log) " (log)" else ""}</text>""").append('\n')
        series.entries.forEachIndexed { i, (name, pts) ->
            val color = COLORS[i % COLORS.size]
            val dash = if (i >= COLORS.size) """ stroke-dasharray="6 3"""" else ""
            s.append("""<polyline fill="none" stroke="$color" stroke-width="2"$dash points="${pts.joinToString(" ") { "${n(x.at(it.first))},${n(y.at(it.second))}" }}"/>""").append('\n')
            for (p in pts) s.append("""<circle cx="${n(x.at(p.first))}" cy="${n(y.at(p.second))}" r="3" fill="$color"/>""").append('\n')
            val ly = TOP + 16 * i
            s.append("""<line x1="${W - RIGHT + 10}" y1="$ly" x2="${W - RIGHT + 30}" y2="$ly" stroke="$color" stroke-width="2"$dash/><text x="${W - RIGHT + 35}" y="$ly" dominant-baseline="middle">${esc(name)}</text>""").append('\n')
        }
        s.append("</svg>\n")
        return s.toString()
    }

    private fun n(v: Double) = String.format(Locale.ROOT, "%.1f", v)

    private fun tick(v: Double): String = when {
        v >= 1_000_000 -> String.format(Locale.ROOT, "%.3gM", v / 1_000_000)
        v >= 1000 -> String.format(Locale.ROOT, "%.3gk", v / 1000)
        else -> String.format(Locale.ROOT, "%.3g", v)
    }

    private fun esc(s: String) = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
}
