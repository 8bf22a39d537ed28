package serverbench.report

import org.jfree.chart.annotations.XYPointerAnnotation
import org.jfree.chart.axis.ValueAxis
import org.jfree.chart.plot.ValueMarker
import org.jfree.chart.plot.XYPlot
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer
import org.jfree.chart.ui.Layer
import org.jfree.chart.ui.RectangleAnchor
import org.jfree.chart.ui.RectangleEdge
import org.jfree.chart.ui.RectangleInsets
import org.jfree.chart.ui.TextAnchor
import serverbench.metrics.CapacitySearch.Kind
import serverbench.metrics.CapacityStep
import serverbench.params.Knobs
import serverbench.params.RunName
import java.awt.BasicStroke
import java.awt.Color
import java.awt.Font
import java.awt.geom.Rectangle2D
import java.io.File
import java.util.Locale
import serverbench.params.ParamNames as N

/**
 * The capacity search's picture, one chart per group of searches that differ only in the server (the same benchmark
 * and parameters): per stack its steps' p50 and p99 against the offered rate, the "hockey stick" (flat near the service
 * time below the capacity, rising steeply past it), the objective as a horizontal line and each stack's capacity as a
 * vertical one, labelled with its kind. Drawn by [Charts.chart] and written as its charts are (SVG and PNG).
 *
 * Axes: [Ticks.scale] makes an axis logarithmic where its values span more than a decade. On x that happens once the
 * ladder has doubled four times, and then a log axis spaces the ladder's steps evenly where a linear one would crowd
 * the first ones at the left edge; within a decade (a bisection around the knee) a linear axis reads better. On y it is
 * almost always log: a missed step's latency is tens of times the objective.
 */
object CapacityChart {
    /**
     * Latencies above this multiple of the objective are drawn at it, their value written beside them. A missed step's
     * latency says little more than "missed": it grows with the step's length (the queue grows every second), and
     * drawn as it is it would take the log axis's decades from the knee, which is what the chart is for.
     */
    const val CLIP = 20.0

    /** One stack's run in a chart: its series are "<server> p50" and "<server> p99" (per fork, with several). */
    class Plot(
        /** Series name -> points, sorted by rate; latency clipped at [clipAt]. */
        val series: Map<String, List<Charts.Point>>,
        /** The stack each series belongs to, an index into [stacks], for its colour. */
        val stackOf: Map<String, Int>,
        val stacks: List<Capacity>,
        val limitMillis: Double,
        val clipAt: Double,
        /** Points drawn at [clipAt]: series, rate, their latency. */
        val clipped: List<Triple<String, Double, Double>>,
        /** What was left out of the series and why, for the subtitle. */
        val leftOut: List<String>,
    )

    /**
     * Writes a chart per group of searches with steps ([Capacity.searches]) into [dir], as `.svg` and `.png`;
     * returns the SVGs' paths relative to [linkBase].
     */
    fun write(runs: List<BenchmarkResult>, dir: File, linkBase: File): List<String> {
        val searched = runs.mapNotNull { Capacity.of(it) }.filter { it.searches.isNotEmpty() }
        val groups = searched.groupBy { it.run.benchmark to key(it.run) }
        return groups.entries
            .sortedWith(
                compareBy<Map.Entry<Pair<String, Map<String, String>>, List<Capacity>>> { it.key.first }
                    .thenComparator { a, b ->
                        val names = (a.key.second.keys + b.key.second.keys).sorted()
                        compareParams(names, a.key.second, b.key.second)
                    },
            )
            .mapNotNull { (key, group) ->
                val sameBenchmark = groups.keys.filter { it.first == key.first }.map { it.second }
                val svg = writeChart(group, name(group.first().run, key.second, sameBenchmark), dir)
                svg?.absoluteFile?.relativeTo(linkBase.absoluteFile)?.path
            }
    }

    /** The parameters a group shares: all but the server (and the engine); unset knobs do not split a group. */
    private fun key(run: BenchmarkResult): Map<String, String> =
        (run.params - N.SERVER - BenchmarkResult.ENGINE).filterNot { Knobs.unset(it.key, it.value) }.toSortedMap()

    /** `capacity-blockingio-direct`, with the parameters that tell it from the benchmark's other groups. */
    private fun name(run: BenchmarkResult, key: Map<String, String>, others: List<Map<String, String>>): String {
        val differing = Knobs.varying(others).filter { it in key }
        val base = "capacity-${run.family.lowercase()}-${run.variant}"
        return if (differing.isEmpty()) base else "$base-" + RunName.dirName(key.filterKeys { it in differing })
    }

    /** Per stack its steps as p50 and p99 series; steps the client could not keep, or without latency, left out. */
    fun plot(group: List<Capacity>): Plot {
        val stacks = group.sortedBy { it.run.params[N.SERVER] }
        val limit = stacks.flatMap { it.searches }.map { it.limitMillis }.firstOrNull { it.isFinite() } ?: Double.NaN
        val clipAt = if (limit.isFinite()) CLIP * limit else Double.POSITIVE_INFINITY
        val drawn = stacks.flatMapIndexed { i, c ->
            c.searches.mapIndexed { f, search ->
                draw(c, i, if (c.searches.size > 1) " (fork ${f + 1})" else "", search, clipAt)
            }
        }
        val series = LinkedHashMap<String, List<Charts.Point>>()
        drawn.forEach { series.putAll(it.series) }
        return Plot(
            series.filterValues { it.isNotEmpty() },
            drawn.flatMap { d -> d.series.keys.map { it to d.stack } }.toMap(),
            stacks,
            limit,
            clipAt,
            drawn.flatMap { it.clipped },
            drawn.flatMap { it.leftOut },
        )
    }

    /** One fork's search as its two series, what of it is clipped and what left out. */
    private class Drawn(
        val series: Map<String, List<Charts.Point>>,
        val stack: Int,
        val clipped: List<Triple<String, Double, Double>>,
        val leftOut: List<String>,
    )

    private val LATENCIES = listOf("p50" to Capacity.Step::p50, "p99" to Capacity.Step::p99)

    private fun draw(c: Capacity, stack: Int, fork: String, search: Capacity.Search, clipAt: Double): Drawn {
        val server = c.run.params[N.SERVER] ?: Leads.name(c.run)
        fun rates(steps: List<Capacity.Step>) = steps.joinToString(", ") { Capacity.rate(it.rate) } + " req/s"
        val (kept, dropped) = search.steps.sortedBy { it.rate }.partition { it.verdict != CapacityStep.Verdict.CLIENT }
        val failed = kept.filterNot { drawable(it.p99) }
        val leftOut = listOfNotNull(
            dropped.takeIf { it.isNotEmpty() }
                ?.let { "$server$fork ${rates(it)} (the load generator could not keep the rate)" },
            failed.takeIf { it.isNotEmpty() }?.let { "$server$fork ${rates(it)} (no latency: the load failed)" },
        )
        val series = LinkedHashMap<String, List<Charts.Point>>()
        val clipped = ArrayList<Triple<String, Double, Double>>()
        for ((what, latency) in LATENCIES) {
            val name = "$server $what$fork"
            val points = kept.filter { drawable(latency(it)) }
            points.filter { latency(it) > clipAt }.mapTo(clipped) { Triple(name, it.rate, latency(it)) }
            series[name] = points.map { Charts.Point(it.rate, minOf(latency(it), clipAt)) }
        }
        return Drawn(series, stack, clipped, leftOut)
    }

    /** A log axis cannot draw 0, nor any axis NaN (a step whose load failed). */
    private fun drawable(ms: Double) = ms.isFinite() && ms > 0

    /** The chart's SVG, or null when no step has a latency to draw (every one left out). */
    private fun writeChart(group: List<Capacity>, name: String, dir: File): File? {
        val plot = plot(group)
        if (plot.series.isEmpty()) return null
        val run = plot.stacks.first().run
        val objective = plot.stacks.first().objective
        dir.mkdirs()
        val chart = Charts.chart(
            "${run.family} ${run.variant}: p50 and p99 by offered rate, objective $objective",
            "offered rate (req/s)",
            "latency (ms)",
            plot.series,
            conditions(plot),
        )
        style(chart.xyPlot, plot, objective)
        val svg = File(dir, "$name.svg")
        Charts.save(chart, svg, plot.series.size)
        return svg
    }

    /** The subtitle: how the steps ran, what the group shares, what was left out or clipped. */
    fun conditions(plot: Plot): List<String> {
        val runs = plot.stacks.map { it.run }
        val stepSeconds = plot.stacks.flatMap { it.searches }.mapNotNull { it.stepSeconds }.distinct().singleOrNull()
        val connections = runs.map { it.params[N.CONCURRENCY] }.distinct().singleOrNull()
        val load = listOfNotNull(
            "capacity search: fixed-rate open-loop steps" + (stepSeconds?.let { " of $it s" } ?: ""),
            connections?.let { "at most $it connections" },
            runs.map { it.budget }.distinct().singleOrNull()
                ?.let { if (it.isEmpty()) "server without a CPU budget" else "server CPU budget $it" },
        ).joinToString(", ")
        val skip = setOf(N.OBJECTIVE, N.RATE, N.CONCURRENCY, N.CPUS, N.CPUSET)
        val shared = key(runs.first()).filterKeys { it !in skip }.entries.joinToString(", ") { "${it.key}=${it.value}" }
        val jdk = runs.map { it.jdkVersion }.filter { it.isNotEmpty() }.distinct().joinToString("/")
        val notes = listOfNotNull(
            plot.leftOut.takeIf { it.isNotEmpty() }?.let { "left out: ${it.joinToString("; ")}" },
            plot.clipped.takeIf { it.isNotEmpty() }?.let {
                "latency above ${Capacity.rate(plot.clipAt)} ms (${CLIP.toInt()} × the objective) drawn at the top " +
                    "edge, its value beside it"
            },
        )
        val params = listOfNotNull(shared.ifEmpty { null }, jdk.ifEmpty { null }?.let { "JDK $it" })
        return listOfNotNull(load, params.joinToString(", ").ifEmpty { null }) + notes
    }

    /**
     * After [Charts.chart]: one colour per stack (p99 solid, p50 dashed), the y axis holding the objective, the
     * objective's line, each stack's capacity line and the clipped points' values.
     */
    private fun style(xy: XYPlot, plot: Plot, objective: String) {
        val renderer = xy.renderer as XYLineAndShapeRenderer
        plot.series.keys.forEachIndexed { i, name ->
            val stack = plot.stackOf.getValue(name)
            renderer.setSeriesPaint(i, SeriesStyle.color(stack))
            val p50 = name.contains(" p50")
            renderer.setSeriesShape(i, SeriesStyle.shape(if (p50) 0 else 1))
            renderer.setSeriesStroke(i, if (p50) dashed(2f, 7f, 4f) else BasicStroke(2f))
        }
        if (plot.limitMillis.isFinite()) {
            val ys = plot.series.values.flatten().map { it.y } + plot.limitMillis
            val old = xy.rangeAxis
            xy.rangeAxis = ChartAxes.of("latency (ms)", Ticks.scale(ys)).apply {
                labelFont = old.labelFont
                tickLabelFont = old.tickLabelFont
                isMinorTickMarksVisible = true
            }
            xy.addRangeMarker(objectiveLine(plot.limitMillis, objective), Layer.FOREGROUND)
        }
        plot.stacks.forEachIndexed { i, c ->
            capacityLine(c, i, xy.domainAxis)?.let { xy.addDomainMarker(it, Layer.FOREGROUND) }
        }
        for ((name, rate, latency) in plot.clipped) {
            xy.addAnnotation(
                XYPointerAnnotation(ms(latency), rate, plot.clipAt, Math.PI / 2).apply {
                    tipRadius = 3.0
                    baseRadius = 16.0
                    labelOffset = 3.0
                    textAnchor = TextAnchor.TOP_CENTER
                    font = Font(Font.SANS_SERIF, Font.PLAIN, 11)
                    paint = SeriesStyle.color(plot.stackOf.getValue(name))
                    arrowPaint = paint
                },
            )
        }
    }

    private fun objectiveLine(limit: Double, objective: String) = ValueMarker(limit).apply {
        paint = Color(0x333333)
        stroke = dashed(1.5f, 8f, 4f)
        label = "objective: $objective"
        labelFont = Font(Font.SANS_SERIF, Font.BOLD, 12)
        labelPaint = Color(0x333333)
        labelBackgroundColor = LABEL_BACKGROUND
        labelAnchor = RectangleAnchor.TOP_RIGHT
        labelTextAnchor = TextAnchor.BOTTOM_RIGHT
        labelOffset = RectangleInsets(2.0, 4.0, 2.0, 4.0)
    }

    /** The stack's capacity as a vertical line labelled with its figure and kind; none where the kind has no figure. */
    private fun capacityLine(c: Capacity, stack: Int, axis: ValueAxis): ValueMarker? {
        val low = c.low ?: return null
        if (c.kind !in setOf(Kind.BRACKETED, Kind.LOWER_BOUND, Kind.CLIENT_SATURATED)) return null
        val server = c.run.params[N.SERVER] ?: Leads.name(c.run)
        return ValueMarker(low).apply {
            paint = SeriesStyle.color(stack)
            stroke = dashed(1.2f, 3f, 3f)
            label = "$server capacity: ${c.cell()}"
            labelFont = Font(Font.SANS_SERIF, Font.PLAIN, 12)
            labelPaint = SeriesStyle.color(stack)
            labelBackgroundColor = LABEL_BACKGROUND
            // At the foot of the line, right of it: below the capacity the curves lie low, above it they rise, so
            // that corner is empty; left of it where the line is near the right edge. Stacked upwards, so close
            // capacities' labels do not overlap.
            val nearRightEdge = axis.valueToJava2D(low, UNIT, RectangleEdge.BOTTOM) > RIGHT_SIDE
            labelAnchor = if (nearRightEdge) RectangleAnchor.BOTTOM_LEFT else RectangleAnchor.BOTTOM_RIGHT
            labelTextAnchor = if (nearRightEdge) TextAnchor.BOTTOM_RIGHT else TextAnchor.BOTTOM_LEFT
            labelOffset = RectangleInsets(0.0, 4.0, 6.0 + 18.0 * stack, 4.0)
        }
    }

    /** The plot's width as 1: where on it a value lies, 0 at the left edge and 1 at the right, whatever the scale. */
    private val UNIT = Rectangle2D.Double(0.0, 0.0, 1.0, 1.0)

    /** Beyond this share of the width a capacity's label goes left of its line, or it would run off the plot. */
    private const val RIGHT_SIDE = 0.65

    /** White, a little transparent: a label stays readable over grid lines and shows what it covers. */
    private val LABEL_BACKGROUND = Color(255, 255, 255, 210)

    private fun dashed(width: Float, vararg dash: Float) =
        BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, dash, 0f)

    /** `6,414 ms`, `12.5 ms`. */
    private fun ms(x: Double) = String.format(Locale.ROOT, if (x >= 100) "%,.0f ms" else "%.1f ms", x)
}
