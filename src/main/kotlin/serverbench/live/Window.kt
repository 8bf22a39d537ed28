package serverbench.live

/** Which side of a comparison a server process is: the baseline or the change. */
enum class Side { BASE, HEAD }

/**
 * One measured window of one server process: which side and pair it is, the round it ran in, when, and its figures by
 * metric name ([Metrics]). A figure that cannot be had (CPU of a server with no admin endpoint) is absent.
 */
class Window(
    val side: Side,
    val pair: Int,
    val round: Int,
    /** Seconds since the measurement began, at the window's start. */
    val at: Double,
    val figures: Map<String, Double>,
    /** Which of the measurement's configurations ([LiveMeasurement.Config]) it measured. */
    val config: Int = 0,
) {
    fun value(metric: String): Double? = figures[metric]
}

/** The metrics a window holds, with their better direction, as the comparison reads them. */
object Metrics {
    const val THROUGHPUT = "score"
    const val CPU_PER_REQUEST = "server.cpuPerReq"
    const val P50 = "latency.p50"
    const val P99 = "latency.p99"
    const val ERRORS = "errors"

    class Metric(val name: String, val label: String, val unit: String, val higherIsBetter: Boolean)

    /** The ones a comparison reports, in the table's order. */
    val COMPARED = listOf(
        Metric(THROUGHPUT, "req/s", "req/s", higherIsBetter = true),
        Metric(CPU_PER_REQUEST, "server CPU/req", "ms", higherIsBetter = false),
        Metric(P50, "p50", "ms", higherIsBetter = false),
        Metric(P99, "p99", "ms", higherIsBetter = false),
    )

    fun of(name: String): Metric = COMPARED.first { it.name == name }
}
