package serverbench.report

import org.jfree.chart.axis.AxisState
import org.jfree.chart.axis.LogAxis
import org.jfree.chart.axis.NumberAxis
import org.jfree.chart.axis.NumberTick
import org.jfree.chart.axis.TickType
import org.jfree.chart.axis.ValueAxis
import org.jfree.chart.plot.CrosshairState
import org.jfree.chart.plot.PlotRenderingInfo
import org.jfree.chart.plot.XYPlot
import org.jfree.chart.renderer.xy.XYItemRendererState
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer
import org.jfree.chart.ui.RectangleEdge
import org.jfree.chart.ui.TextAnchor
import org.jfree.chart.util.ShapeUtils
import org.jfree.data.xy.IntervalXYDataset
import org.jfree.data.xy.XYDataset
import org.jfree.svg.SVGGraphics2D
import org.jfree.svg.SVGHints
import java.awt.BasicStroke
import java.awt.Color
import java.awt.Graphics2D
import java.awt.Shape
import java.awt.geom.Ellipse2D
import java.awt.geom.Line2D
import java.awt.geom.Rectangle2D

/** JFreeChart axes that draw a [Scale]'s ticks, not ticks of their own choosing: the rule lives in [Ticks]. */
object ChartAxes {
    fun of(label: String, scale: Scale): ValueAxis =
        if (scale.log) LogTicked("$label (log scale)", scale) else Linear(label, scale)

    private class Linear(label: String, private val scale: Scale) : NumberAxis(label) {
        init {
            setRange(scale.lower, scale.upper)
        }

        override fun refreshTicks(g: Graphics2D, state: AxisState, area: Rectangle2D, edge: RectangleEdge): List<Any?> =
            ticks(scale, edge)
    }

    private class LogTicked(label: String, private val scale: Scale) : LogAxis(label) {
        init {
            setRange(scale.lower, scale.upper)
        }

        override fun refreshTicks(g: Graphics2D, state: AxisState, area: Rectangle2D, edge: RectangleEdge): List<Any?> =
            ticks(scale, edge)
    }

    private fun ticks(scale: Scale, edge: RectangleEdge): List<Any?> {
        val anchor = when (edge) {
            RectangleEdge.BOTTOM -> TextAnchor.TOP_CENTER
            RectangleEdge.TOP -> TextAnchor.BOTTOM_CENTER
            RectangleEdge.LEFT -> TextAnchor.CENTER_RIGHT
            else -> TextAnchor.CENTER_LEFT
        }
        return scale.major.map { NumberTick(TickType.MAJOR, it, Ticks.label(it), anchor, anchor, 0.0) } +
            scale.minor.map { NumberTick(TickType.MINOR, it, "", anchor, anchor, 0.0) }
    }
}

/**
 * Lines with markers, and each point's interval as a vertical bar with caps where it has one. JFreeChart's
 * XYErrorRenderer draws a bar for every point, NaN ends included, and a point without an interval must have none.
 * In SVG each series' line is one path in a `<g class="series-line">` and each bar a `<g class="error-bar">`, so a
 * reader (or a test) can tell them from grid lines.
 */
class ErrorBarRenderer : XYLineAndShapeRenderer(true, true) {
    private val barStroke = BasicStroke(1.3f)

    init {
        drawSeriesLineAsPath = true
    }

    override fun drawFirstPassShape(g2: Graphics2D, pass: Int, series: Int, item: Int, shape: Shape) {
        if (g2 is SVGGraphics2D) g2.setRenderingHint(SVGHints.KEY_BEGIN_GROUP, mapOf("class" to "series-line"))
        super.drawFirstPassShape(g2, pass, series, item, shape)
        if (g2 is SVGGraphics2D) g2.setRenderingHint(SVGHints.KEY_END_GROUP, "series-line")
    }

    override fun drawItem(
        g2: Graphics2D,
        state: XYItemRendererState,
        dataArea: Rectangle2D,
        info: PlotRenderingInfo?,
        plot: XYPlot,
        domainAxis: ValueAxis,
        rangeAxis: ValueAxis,
        dataset: XYDataset,
        series: Int,
        item: Int,
        crosshairState: CrosshairState?,
        pass: Int,
    ) {
        if (pass == 0 && dataset is IntervalXYDataset && getItemVisible(series, item)) {
            val low = dataset.getStartYValue(series, item)
            val high = dataset.getEndYValue(series, item)
            if (low.isFinite() && high.isFinite() && high > low) {
                val x = domainAxis.valueToJava2D(dataset.getXValue(series, item), dataArea, plot.domainAxisEdge)
                val y0 = rangeAxis.valueToJava2D(low, dataArea, plot.rangeAxisEdge)
                val y1 = rangeAxis.valueToJava2D(high, dataArea, plot.rangeAxisEdge)
                if (g2 is SVGGraphics2D) g2.setRenderingHint(SVGHints.KEY_BEGIN_GROUP, mapOf("class" to "error-bar"))
                g2.paint = getItemPaint(series, item)
                g2.stroke = barStroke
                g2.draw(Line2D.Double(x, y0, x, y1))
                g2.draw(Line2D.Double(x - CAP, y0, x + CAP, y0))
                g2.draw(Line2D.Double(x - CAP, y1, x + CAP, y1))
                if (g2 is SVGGraphics2D) g2.setRenderingHint(SVGHints.KEY_END_GROUP, "error-bar")
            }
        }
        super.drawItem(
            g2, state, dataArea, info, plot, domainAxis, rangeAxis, dataset, series, item, crosshairState,
            pass,
        )
    }

    companion object {
        private const val CAP = 5.0
    }
}

/** Series styles: colour, marker and dash vary at different periods (10, 7, 10), so 20+ series stay apart. */
object SeriesStyle {
    private val COLORS = listOf(
        0x1f77b4, 0xd62728, 0x2ca02c, 0xff7f0e, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f,
        0xbcbd22, 0x17becf,
    ).map { Color(it) }
    private const val S = 3.5
    private val SHAPES: List<Shape> = listOf(
        Ellipse2D.Double(-S, -S, 2 * S, 2 * S),
        Rectangle2D.Double(-S * 0.9, -S * 0.9, 1.8 * S, 1.8 * S),
        ShapeUtils.createUpTriangle(S.toFloat() * 1.1f),
        ShapeUtils.createDiamond(S.toFloat() * 1.2f),
        ShapeUtils.createDownTriangle(S.toFloat() * 1.1f),
        ShapeUtils.createRegularCross(S.toFloat() * 1.1f, S.toFloat() * 0.35f),
        ShapeUtils.createDiagonalCross(S.toFloat() * 1.1f, S.toFloat() * 0.35f),
    )
    private val DASHES = listOf(null, floatArrayOf(7f, 4f), floatArrayOf(2f, 3f), floatArrayOf(9f, 3f, 2f, 3f))

    fun color(i: Int): Color = COLORS[i % COLORS.size]
    fun shape(i: Int): Shape = SHAPES[i % SHAPES.size]
    fun stroke(i: Int): BasicStroke = when (val dash = DASHES[i / COLORS.size % DASHES.size]) {
        null -> BasicStroke(2f)
        else -> BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, dash, 0f)
    }
}
