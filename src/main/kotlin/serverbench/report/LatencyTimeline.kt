package serverbench.report

import org.HdrHistogram.AbstractHistogram
import org.HdrHistogram.HistogramLogReader
import serverbench.metrics.LatencyLog
import serverbench.metrics.RunFiles
import serverbench.params.RunName
import java.io.File

/**
 * Latency over time: for a run whose forks wrote latency logs ([LatencyLog], `latency-pid<N>.hlog`, read with
 * HdrHistogram's own [HistogramLogReader]), a chart of the p50 and p99 of every measured iteration against the time
 * since the fork's first one: a drift, a stall or one slow fork shows there, where the run's figures merge it away.
 * One pair of lines per fork, in the order the forks ran; written beside the family charts and linked from the run's
 * row. Runs without logs get nothing.
 */
object LatencyTimeline {
    /** One logged interval: its start in s since the fork's first, its p50 and p99 in ms (as `latency.*` has them). */
    data class Interval(val seconds: Double, val p50: Double, val p99: Double)

    /** One fork's intervals, and when its log started (s since the epoch), which orders the forks. */
    class Fork(val file: File, val startSeconds: Double, val intervals: List<Interval>)

    private const val MICROS_PER_MILLI = 1000.0
    private const val MILLIS_PER_SECOND = 1000.0

    /** The latency logs [run]'s forks wrote, as its result entry lists them. */
    fun logs(run: BenchmarkResult): List<File> =
        run.files.filter { it.extension == LatencyLog.EXTENSION && RunFiles.what(it) == LatencyLog.WHAT && it.isFile }

    /** A log's intervals with requests in them; its start time is its first interval's. */
    fun read(file: File): Fork = HistogramLogReader(file).use { reader ->
        val histograms = generateSequence { reader.nextIntervalHistogram() }
            .filterIsInstance<AbstractHistogram>().toList()
        val first = histograms.firstOrNull()?.startTimeStamp ?: 0L
        val intervals = histograms.filter { it.totalCount > 0 }.map {
            Interval(
                (it.startTimeStamp - first) / MILLIS_PER_SECOND,
                it.getValueAtPercentile(50.0) / MICROS_PER_MILLI,
                it.getValueAtPercentile(99.0) / MICROS_PER_MILLI,
            )
        }
        Fork(file, first / MILLIS_PER_SECOND, intervals)
    }

    /**
     * Writes the chart of every run with latency logs into [dir] (`<Class.method>/<params>/latency-over-time.svg`,
     * and `.png` beside it); returns run key -> the SVG's path relative to [linkBase].
     */
    fun write(runs: List<BenchmarkResult>, dir: File, linkBase: File): Map<String, String> {
        val out = LinkedHashMap<String, String>()
        for (run in runs) {
            val forks = logs(run).map(::read).filter { it.intervals.isNotEmpty() }.sortedBy { it.startSeconds }
            if (forks.isEmpty()) continue
            val svg = File(File(dir, RunName.path(run.benchmark, run.params)), "latency-over-time.svg")
            svg.parentFile.mkdirs()
            val title = "${RunName.of(run.benchmark, run.params)}: latency per measured iteration"
            val x = "start of the iteration, s since the fork's first"
            val chart = Charts.chart(title, x, "latency (ms)", series(forks), conditions(run, forks))
            Charts.save(chart, svg, 2 * forks.size)
            out[run.key] = svg.absoluteFile.relativeTo(linkBase.absoluteFile).invariantSeparatorsPath
        }
        return out
    }

    /** `p50` and `p99`, or with several forks `p50 fork 1` ... in the order they ran. */
    fun series(forks: List<Fork>): Map<String, List<Charts.Point>> {
        val out = LinkedHashMap<String, List<Charts.Point>>()
        forks.forEachIndexed { i, fork ->
            val suffix = if (forks.size > 1) " fork ${i + 1}" else ""
            out["p50$suffix"] = fork.intervals.map { Charts.Point(it.seconds, it.p50) }
            out["p99$suffix"] = fork.intervals.map { Charts.Point(it.seconds, it.p99) }
        }
        return out
    }

    /** What a point is (and, open loop, from when its latency runs), and the logs it was read from. */
    private fun conditions(run: BenchmarkResult, forks: List<Fork>): List<String> {
        val count = forks.sumOf { it.intervals.size }
        val inForks = if (forks.size > 1) " in ${forks.size} forks" else ""
        val from = if (run.openLoop) "; open loop: from each request's scheduled send" else ""
        return listOf(
            "each point: one measured iteration's requests ($count iterations$inForks), the load client's threads " +
                "merged$from",
            "from " + forks.joinToString(", ") { it.file.name },
        )
    }
}
