package serverbench.report

import org.jfree.chart.ChartUtils
import org.jfree.chart.JFreeChart
import org.jfree.chart.block.BlockBorder
import org.jfree.chart.plot.XYPlot
import org.jfree.chart.text.TextUtils
import org.jfree.chart.title.TextTitle
import org.jfree.chart.ui.HorizontalAlignment
import org.jfree.chart.ui.RectangleEdge
import org.jfree.chart.ui.RectangleInsets
import org.jfree.data.xy.YIntervalSeries
import org.jfree.data.xy.YIntervalSeriesCollection
import org.jfree.svg.SVGGraphics2D
import org.jfree.svg.ViewBox
import serverbench.metrics.MetricCatalogue
import serverbench.metrics.PercentileRange
import serverbench.params.Knobs
import java.awt.BasicStroke
import java.awt.Color
import java.awt.Font
import java.awt.Rectangle
import java.awt.geom.Line2D
import java.io.File
import java.util.Locale
import serverbench.params.ParamNames as N

/**
 * Line charts for a family swept over one numeric parameter (e.g. `limit` or `delayMs`): req/s and p99 per
 * variant × server, each point with its interval as an error bar (req/s: JMH's 99.9 %; p99: the per-iteration range,
 * [PercentileRange]), the conditions of the run (connections, loop, CPU budget, iterations, JDK) under the title and
 * the legend below the plot. Axes switch to log scale where values span more than a decade; [Ticks] picks the ticks
 * (1, 2 and 5 of every decade on log axes, at least five steps on linear ones) so a value reads to two digits.
 *
 * Drawn by JFreeChart, a kept library, rather than by hand: log axes, error bars, legend layout and text measured in
 * the actual font are its daily work, and a hand-written SVG got each of them only roughly. It costs the jar two
 * dependency-free artifacts. Written as SVG (JFreeSVG; GitHub shows it in the markdown, which links it) and as PNG
 * beside it, to attach where SVG is not shown.
 */
object Charts {
    init {
        // The report runs on machines without a display; AWT must know before its first use.
        if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true")
        // Rotated text (the y axis label) via drawString, which JFreeSVG writes as <text>; the workaround (for JDKs
        // of long ago) draws glyph outlines, which no reader can select or search.
        TextUtils.setUseDrawRotatedStringWorkaround(false)
    }

    private const val W = 960

    /** Taller with more series, so the legend's rows below the plot do not squeeze it. */
    private fun height(series: Int) = (560 + 14 * series).coerceAtMost(900)

    /** The PNG is drawn at twice the SVG's size, sharp on high-density screens. */
    private const val PNG_SCALE = 2
    private val P99 = MetricCatalogue.P99.name

    /** One point: the parameter's value, the metric's score and its interval (NaN ends: none). */
    data class Point(val x: Double, val y: Double, val low: Double = Double.NaN, val high: Double = Double.NaN)

    /**
     * Writes the charts of every swept family into [dir], each as `.svg` and `.png`; returns family -> SVG paths
     * relative to [linkBase].
     */
    fun write(runs: List<BenchmarkResult>, dir: File, linkBase: File): Map<String, List<String>> {
        val out = LinkedHashMap<String, MutableList<String>>()
        for ((family, familyRuns) in runs.groupBy { it.family }.toSortedMap()) {
            for (param in sweptParams(familyRuns)) {
                for (metric in listOf(BenchmarkResult.SCORE, P99)) {
                    val svg = writeChart(family, familyRuns, param, metric, dir) ?: continue
                    out.getOrPut(family) { ArrayList() } += svg.absoluteFile.relativeTo(linkBase.absoluteFile).path
                }
            }
        }
        return out
    }

    /** One chart of [family]'s [metric] by [param], as `.svg` and `.png` in [dir]; the SVG, or null if no series. */
    private fun writeChart(
        family: String,
        familyRuns: List<BenchmarkResult>,
        param: String,
        metric: String,
        dir: File,
    ): File? {
        val series = series(familyRuns, param, metric)
        if (series.isEmpty()) return null
        dir.mkdirs()
        val throughput = metric == BenchmarkResult.SCORE
        val (kind, label) = if (throughput) "throughput" to "req/s" else "p99" to "p99 latency (ms)"
        val name = "${family.lowercase()}-$param-$kind"
        val chart = chart("$family: $label by $param", param, label, series, conditions(familyRuns, param, metric))
        val svg = File(dir, "$name.svg")
        save(chart, svg, series.size)
        return svg
    }

    /** Writes [chart] as [svg] and as a PNG of the same name beside it, tall enough for [series] legend entries. */
    internal fun save(chart: JFreeChart, svg: File, series: Int) {
        writeSvg(chart, svg, height(series))
        writePng(chart, File(svg.parentFile, svg.nameWithoutExtension + ".png"), height(series))
    }

    /** Numeric parameters with at least three values within the family. */
    fun sweptParams(runs: List<BenchmarkResult>): List<String> =
        runs.flatMap { it.params.keys }.distinct().filter { p ->
            val values = runs.mapNotNull { it.params[p] }.distinct()
            values.size >= 3 && values.all { it.toDoubleOrNull() != null }
        }

    /** Series name -> points sorted by x; one series per variant, server and value of the other varying parameters. */
    fun series(runs: List<BenchmarkResult>, param: String, metric: String): Map<String, List<Point>> {
        val varying = Knobs.varying(runs.map { it.params }).filter { it != param && it != N.SERVER }
        fun name(r: BenchmarkResult) = (
            listOf("${r.variant} ${r.params[N.SERVER] ?: ""}".trim()) +
                varying.map { "$it=${r.params[it] ?: Results.absentAs(it) ?: "–"}" }
            ).joinToString(" ")
        fun point(r: BenchmarkResult) =
            r.metric(metric)!!.let { Point(r.params[param]!!.toDouble(), it.score, it.low, it.high) }
        return runs
            .filter { it.metric(metric)?.score?.isFinite() == true && it.params[param]?.toDoubleOrNull() != null }
            .groupBy(::name)
            .mapValues { (_, rs) -> rs.map(::point).sortedBy { it.x } }
            .filterValues { it.size >= 2 }
            .toSortedMap(NATURAL)
    }

    /** `concurrency=16` before `concurrency=256`: digit runs compare as numbers, the rest as text. */
    private val NATURAL = Comparator<String> { a, b ->
        val chunks = Regex("\\d+|\\D+")
        val (x, y) = chunks.findAll(a).map { it.value }.toList() to chunks.findAll(b).map { it.value }.toList()
        x.zip(y).map { (p, q) ->
            val (m, n) = p.toBigIntegerOrNull() to q.toBigIntegerOrNull()
            if (m != null && n != null) m.compareTo(n) else p.compareTo(q)
        }.firstOrNull { it != 0 } ?: x.size.compareTo(y.size)
    }

    /**
     * The conditions every point of the chart shares, in one or two lines: connections, loop, the server's CPU
     * budget, the load client's own quota (when any point had one), then iterations and JDK. A condition that varies
     * is in the series' names instead, the swept one on the x axis.
     */
    fun conditions(runs: List<BenchmarkResult>, param: String, metric: String = BenchmarkResult.SCORE): List<String> {
        fun single(p: String): String? = runs.map { it.params[p] }.distinct().singleOrNull()?.takeIf { p != param }
        val load = listOfNotNull(
            single(N.CONCURRENCY)?.let { "$it connections" },
            when (val rate = if (runs.any { it.params.containsKey(N.RATE) }) single(N.RATE) else "0") {
                null -> null
                else -> if ((rate.toDoubleOrNull() ?: 0.0) > 0) "open loop at $rate req/s" else "closed loop"
            },
            budget(runs, param),
            runs.map { it.clientCpus }.distinct().takeIf { q -> q.any { it.isNotEmpty() } }
                ?.let { q -> "load client quota ${q.joinToString("/") { it.ifEmpty { "none" } }} cores" },
        )
        val iterations = runs.map { Triple(it.iterations, it.iterationTime, it.forks) }.distinct().singleOrNull()
            ?.takeIf { it.first > 0 }
            ?.let { (n, time, forks) ->
                val inForks = if (forks > 0) " in $forks fork${if (forks > 1) "s" else ""}" else ""
                "$n × ${time.ifEmpty { "?" }} measured iterations$inForks"
            }
        val jdks = runs.map { it.jdkVersion }.filter { it.isNotEmpty() }.distinct()
        val plan = listOfNotNull(
            iterations,
            jdks.takeIf { it.isNotEmpty() }?.let { "JDK ${it.joinToString("/")}" },
            errorBars(runs, metric),
        )
        return listOf(load.joinToString(", "), plan.joinToString(", ")).filter { it.isNotEmpty() }
    }

    /** What a point's error bar is: JMH's 99.9 % interval, or a percentile's per-iteration range and its coverage. */
    private fun errorBars(runs: List<BenchmarkResult>, metric: String): String {
        if (!PercentileRange.isPercentile(metric)) return "error bars: 99.9 % interval"
        val what = metric.substringAfterLast("latency.")
        val n = runs.mapNotNull { it.metric(metric)?.samples }.distinct().singleOrNull()?.takeIf { it > 0 }
            ?: return "error bars: range of the iterations' $what"
        return String.format(
            Locale.ROOT,
            "error bars: range of the %d iterations' %s (holds their median with %.1f %%)",
            n,
            what,
            100 * PercentileRange.coverage(n),
        )
    }

    /** `-p cpus` / `-p cpuset`; absent when at their defaults, which [Results.read] drops. */
    private fun budget(runs: List<BenchmarkResult>, param: String): String? {
        if (param == N.CPUS || param == N.CPUSET) return null
        val placements = runs.map { it.params[N.CPUS] to it.params[N.CPUSET] }.distinct()
        val (cpus, cpuset) = placements.singleOrNull() ?: return null
        return when {
            cpus == null && cpuset == null -> "server without a CPU budget"

            else ->
                "server CPU budget " +
                    listOfNotNull(cpus?.let { "cpus=$it" }, cpuset?.let { "cpuset=$it" }).joinToString(" ")
        }
    }

    fun chart(
        title: String,
        xLabel: String,
        yLabel: String,
        series: Map<String, List<Point>>,
        conditions: List<String>,
    ): JFreeChart {
        val points = series.values.flatten()
        val xScale = Ticks.scale(points.map { it.x })
        val yScale = Ticks.scale(points.map { it.y }, points.flatMap { listOf(it.low, it.high) })
        val data = YIntervalSeriesCollection()
        for ((name, pts) in series) {
            val s = YIntervalSeries(name)
            // A log axis cannot show an end at or below 0: such a bar runs to the frame.
            for (p in pts) s.add(p.x, p.y, if (yScale.log && p.low <= 0) yScale.lower else p.low, p.high)
            data.addSeries(s)
        }
        val renderer = ErrorBarRenderer().apply {
            legendLine = Line2D.Double(-14.0, 0.0, 14.0, 0.0)
            for (i in series.keys.indices) {
                setSeriesPaint(i, SeriesStyle.color(i))
                setSeriesShape(i, SeriesStyle.shape(i))
                setSeriesStroke(i, SeriesStyle.stroke(i))
            }
        }
        val plot = XYPlot(data, ChartAxes.of(xLabel, xScale), ChartAxes.of(yLabel, yScale), renderer).apply {
            backgroundPaint = Color.WHITE
            outlinePaint = Color.GRAY
            for (axis in listOf(domainAxis, rangeAxis)) {
                axis.labelFont = Font(Font.SANS_SERIF, Font.PLAIN, 14)
                axis.tickLabelFont = Font(Font.SANS_SERIF, Font.PLAIN, 12)
                axis.isMinorTickMarksVisible = true
            }
            // Labelled ticks get darker grid lines than the steps between, which help read the second digit.
            val grid = BasicStroke(0.8f)
            val (major, minor) = Color(0xB0B0B0) to Color(0xE6E6E6)
            domainGridlinePaint = major
            domainGridlineStroke = grid
            rangeGridlinePaint = major
            rangeGridlineStroke = grid
            isDomainMinorGridlinesVisible = true
            domainMinorGridlinePaint = minor
            domainMinorGridlineStroke = grid
            isRangeMinorGridlinesVisible = true
            rangeMinorGridlinePaint = minor
            rangeMinorGridlineStroke = grid
        }
        return JFreeChart(title, Font(Font.SANS_SERIF, Font.BOLD, 17), plot, true).apply {
            backgroundPaint = Color.WHITE
            padding = RectangleInsets(8.0, 8.0, 8.0, 16.0)
            conditions.forEachIndexed { i, line ->
                addSubtitle(
                    i,
                    TextTitle(line, Font(Font.SANS_SERIF, Font.PLAIN, 13)).apply {
                        paint = Color.DARK_GRAY
                        horizontalAlignment = HorizontalAlignment.CENTER
                    },
                )
            }
            legend.apply {
                position = RectangleEdge.BOTTOM
                itemFont = Font(Font.SANS_SERIF, Font.PLAIN, 13)
                frame = BlockBorder.NONE
                margin = RectangleInsets(8.0, 0.0, 0.0, 0.0)
            }
        }
    }

    private fun writeSvg(chart: JFreeChart, file: File, h: Int) {
        val g2 = SVGGraphics2D(W.toDouble(), h.toDouble())
        // Two decimals of a pixel are plenty; the default writes every coordinate to full double precision.
        g2.setGeomDoubleConverter { String.format(Locale.ROOT, "%.2f", it) }
        chart.draw(g2, Rectangle(0, 0, W, h))
        // No DOCTYPE (getSVGDocument writes one): a parser would fetch the DTD from w3.org.
        file.writeText(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
                g2.getSVGElement(null, true, ViewBox(0.0, 0.0, W.toDouble(), h.toDouble()), null, null) + "\n",
        )
    }

    private fun writePng(chart: JFreeChart, file: File, h: Int) {
        file.outputStream().buffered().use { ChartUtils.writeScaledChartAsPNG(it, chart, W, h, PNG_SCALE, PNG_SCALE) }
    }
}
