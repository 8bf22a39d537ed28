package serverbench.metrics

import org.HdrHistogram.HistogramLogWriter
import org.openjdk.jmh.infra.BenchmarkParams
import org.openjdk.jmh.infra.IterationParams
import org.openjdk.jmh.runner.IterationType
import serverbench.client.ClientReport
import serverbench.params.RunName
import java.io.File
import java.io.IOException
import java.io.PrintStream

/**
 * A fork's latency log, `latency-pid<N>.hlog` among the run's files ([RunFiles]): every measured iteration's latency
 * histogram ([ClientReport.latencyMicros]: merged over the client threads; open loop, from each request's scheduled
 * send) as one interval line of HdrHistogram's log format, written by HdrHistogram's own [HistogramLogWriter], so its
 * tools read it (`HistogramLogReader`, `HistogramLogProcessor`). Values in µs, as the client records them; the line's
 * start and length are the iteration's own wall clock. Warmup iterations are left out, as from every figure; each line
 * is flushed as written, so a fork that dies keeps what it measured.
 *
 * Merged, the logs of a run's forks are the histogram its `latency.*` percentiles come from ([LatencyResult]).
 */
class LatencyLog internal constructor(
    /** Where the log goes, asked once at the first measured iteration; null: no log (no result file). */
    private val target: () -> File?,
    /** Names the run in the log's first comment line. */
    private val runName: String = "",
) {
    private var out: PrintStream? = null
    private var writer: HistogramLogWriter? = null
    private var done = false

    /**
     * Appends [report]'s latency as one interval if [iteration] was measured; the iteration's window ended at
     * [endMillis] (ms since the epoch) and lasted [ClientReport.wallNanos].
     */
    fun interval(iteration: IterationParams, report: ClientReport, endMillis: Long = System.currentTimeMillis()) {
        if (iteration.type != IterationType.MEASUREMENT || done) return
        val startMillis = endMillis - report.wallNanos / NANOS_PER_MILLI
        val w = writer ?: open(startMillis) ?: return
        val base = w.baseTime
        w.outputIntervalHistogram(
            (startMillis - base) / MILLIS_PER_SECOND,
            (endMillis - base) / MILLIS_PER_SECOND,
            report.latencyMicros,
            MICROS_PER_MILLI,
        )
        val stream = out!!
        stream.flush()
        if (stream.checkError()) stop("could not be written")
    }

    /** Ends the log (the trial's teardown); a later [interval] writes nothing. */
    fun close() {
        done = true
        out?.close()
        out = null
        writer = null
    }

    /** The log's header: who wrote it, the unit, the format version, start and base time (its first interval's). */
    private fun open(startMillis: Long): HistogramLogWriter? {
        val file = target()
        if (file == null) {
            done = true
            return null
        }
        val stream = try {
            PrintStream(file.outputStream().buffered(), false, Charsets.UTF_8)
        } catch (e: IOException) {
            println("\nserverbench: WARNING no latency log: $file: ${e.message}")
            done = true
            return null
        }
        val w = HistogramLogWriter(stream)
        w.outputComment("serverbench latency log of $runName, fork pid ${ProcessHandle.current().pid()}")
        UNITS.forEach { w.outputComment(it) }
        w.outputLogFormatVersion()
        w.outputStartTime(startMillis)
        w.setBaseTime(startMillis)
        w.outputBaseTime(startMillis)
        w.outputLegend()
        out = stream
        writer = w
        return w
    }

    private fun stop(why: String) {
        println("\nserverbench: WARNING latency log of $runName $why; no more intervals go to it")
        close()
    }

    companion object {
        /** What the file holds ([RunFiles.what]) and its extension: `latency-pid<N>.hlog`. */
        const val WHAT = "latency"
        const val EXTENSION = "hlog"

        private const val NANOS_PER_MILLI = 1_000_000L
        private const val MILLIS_PER_SECOND = 1000.0

        /** Interval_Max is written in ms: the recorded µs divided by this. */
        private const val MICROS_PER_MILLI = 1000.0

        /** Comment lines that say what the histograms hold (a reader's tools assume ns unless told). */
        private val UNITS = listOf(
            "Values: latency in microseconds (us) of each successful request of one measured iteration, merged over " +
                "the load client's threads; closed loop from the send, open loop (rate > 0) from the scheduled send",
            "Interval_Max in milliseconds; warmup iterations are not logged; " +
                "HistogramLogProcessor -outputValueUnitRatio 1000 gives ms",
        )

        /** The log of the trial [params] names: `latency-pid<N>.hlog` under the launcher's root, if it named one. */
        fun of(params: BenchmarkParams): LatencyLog {
            val values = RunName.values(params)
            return LatencyLog({ RunFiles.forkFile(params.benchmark, values, WHAT, EXTENSION) }, RunName.of(params))
        }
    }
}
