package serverbench.metrics

import java.util.Locale
import kotlin.math.abs

/** How a figure is printed wherever a person reads it: the report, the console, Hyperfoil's summary lines. */
object FigureFormat {
    /** Three significant digits for small figures, whole numbers for large ones. */
    fun format(x: Double): String = when {
        x == 0.0 -> "0"
        abs(x) >= 1000 -> String.format(Locale.ROOT, "%,.0f", x)
        abs(x) >= 100 -> String.format(Locale.ROOT, "%.1f", x)
        abs(x) >= 1 -> String.format(Locale.ROOT, "%.2f", x)
        else -> String.format(Locale.ROOT, "%.3g", x)
    }

    /** [x] as its [metric] is read: a whole number where it counts things. */
    fun format(metric: MetricSpec?, x: Double): String =
        if (metric?.whole == true) String.format(Locale.ROOT, "%.0f", x) else format(x)
}
