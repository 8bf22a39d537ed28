package serverbench.metrics

import org.HdrHistogram.Histogram
import org.HdrHistogram.HistogramLogProcessor
import org.HdrHistogram.HistogramLogReader
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.openjdk.jmh.infra.IterationParams
import org.openjdk.jmh.results.BenchmarkResult
import org.openjdk.jmh.results.IterationResult
import org.openjdk.jmh.results.ResultRole
import org.openjdk.jmh.results.RunResult
import org.openjdk.jmh.results.ThroughputResult
import org.openjdk.jmh.runner.IterationType
import org.openjdk.jmh.runner.options.TimeValue
import serverbench.client.LoadClient
import serverbench.testing.clientReport
import java.io.File
import java.util.Locale
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * The latency log of issue 38: HdrHistogram's own reader and tools read it, and the logs of a run's forks merge to the
 * histogram its `latency.*` percentiles are computed from, warmup left out.
 */
class LatencyLogTest {
    private val warmup = IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(5), 1)
    private val measurement = IterationParams(IterationType.MEASUREMENT, 3, TimeValue.seconds(5), 1)

    /** µs -> requests, as the load client records them. */
    private fun histogram(vararg counts: Pair<Long, Long>) = Histogram(LoadClient.HIGHEST_TRACKABLE_MICROS, 3).apply {
        counts.forEach { (micros, n) -> recordValueWithCount(micros, n) }
    }

    /** Each fork's measured iterations: different shapes, so a lost or doubled interval changes the percentiles. */
    private val forks = listOf(
        listOf(
            histogram(800L to 9_000, 2_500L to 900, 40_000L to 100),
            histogram(750L to 9_500, 3_100L to 450, 12_345L to 50),
            histogram(900L to 8_000, 1_900L to 1_990, 250_000L to 10),
        ),
        listOf(
            histogram(1_200L to 7_000, 4_000L to 2_900, 60_000L to 100),
            histogram(1_100L to 9_990, 90_000L to 10),
        ),
    )

    /** The warmup's slow requests, which must reach no log. */
    private val warmupHistogram = histogram(3_000_000L to 5_000)

    /** Writes [measured] as one fork does: a warmup iteration, then the measured ones, 5 s each. */
    private fun writeFork(file: File, measured: List<Histogram>, startMillis: Long) {
        val log = LatencyLog({ file }, "NoopBenchmark.hello (server=netty)")
        val fiveSeconds = 5_000_000_000L
        log.interval(warmup, clientReport(warmupHistogram, wallNanos = fiveSeconds), startMillis)
        measured.forEachIndexed { i, h ->
            log.interval(measurement, clientReport(h, wallNanos = fiveSeconds), startMillis + 5_000L * (i + 2))
            // Flushed as written: a fork killed now would keep the intervals so far.
            assertEquals(i + 1, read(file).size, file.readText())
        }
        log.close()
    }

    private fun read(file: File): List<Histogram> = HistogramLogReader(file).use { reader ->
        generateSequence { reader.nextIntervalHistogram() }.map { it as Histogram }.toList()
    }

    private fun iteration(h: Histogram) = IterationResult(null, null, null).apply {
        addResult(ThroughputResult(ResultRole.PRIMARY, "ops", 1000.0, 1000, TimeUnit.SECONDS))
        addResult(LatencyResult(h))
    }

    /** The run's `latency.*` as JMH computes them from each fork's measured iterations ([LatencyResult]). */
    private fun reported(): Map<String, Double> {
        val run = RunResult(null, forks.map { fork -> BenchmarkResult(null, fork.map(::iteration)) })
        return run.aggregatedResult.secondaryResults.mapValues { it.value.score }
    }

    @Test
    fun `the logs of a run's forks, read with HistogramLogReader, merge to its reported percentiles`(
        @TempDir dir: File,
    ) {
        val files = forks.mapIndexed { i, fork ->
            File(dir, "latency-pid${100 + i}.hlog").also { writeFork(it, fork, 1_790_000_000_000L + 60_000L * i) }
        }
        val intervals = files.map(::read)
        assertEquals(forks.map { it.size }, intervals.map { it.size }, "one line per measured iteration, no warmup")
        val merged = Histogram(LoadClient.HIGHEST_TRACKABLE_MICROS, 3)
        intervals.flatten().forEach { merged.add(it) }
        val recorded = Histogram(LoadClient.HIGHEST_TRACKABLE_MICROS, 3).also { m -> forks.flatten().forEach(m::add) }
        assertEquals(recorded, merged)
        assertTrue(merged.maxValue < warmupHistogram.minValue, "a warmup interval leaked into the log")

        // Every latency figure of the run, computed as the run computes it, from the logs' merged histogram.
        val fromLogs = BenchmarkResult(null, listOf(iteration(merged))).secondaryResults.mapValues { it.value.score }
        val reported = reported().filterKeys { it.startsWith("latency.") }
        assertEquals(LatencyResult.SUMMARY_LABELS.toSet(), reported.keys)
        assertEquals(reported, fromLogs)
        assertEquals(merged.getValueAtPercentile(99.0) / 1000.0, reported.getValue("latency.p99"))
    }

    @Test
    fun `each line is a measured iteration at its own time, the header says the unit`(@TempDir dir: File) {
        val file = File(dir, "latency-pid1.hlog")
        val start = 1_790_000_000_000L
        writeFork(file, forks[0], start)
        val intervals = read(file)
        // The warmup iteration's 5 s come first; the log starts with the first measured iteration.
        assertEquals(listOf(0L, 5_000L, 10_000L), intervals.map { it.startTimeStamp - start - 5_000L })
        assertEquals(listOf(5_000L, 5_000L, 5_000L), intervals.map { it.endTimeStamp - it.startTimeStamp })
        assertEquals(forks[0], intervals)
        val text = file.readLines()
        assertTrue(text.first().startsWith("#serverbench latency log of NoopBenchmark.hello (server=netty)"), text[0])
        assertTrue(text.any { it.startsWith("#Values: latency in microseconds") }, "$text")
        assertTrue(text.any { it.startsWith("#[StartTime: 1790000005.000 ") }, "$text")
        // Interval_Max in ms (HdrHistogram's max: the top of the highest bucket recorded).
        val max = String.format(Locale.ROOT, "%.3f", forks[0][0].maxValue / 1000.0)
        assertEquals("0.000,5.000,$max", text.first { it.startsWith("0.000,") }.substringBeforeLast(','))
    }

    @Test
    fun `HistogramLogProcessor, as the results README runs it, prints the distribution in ms`(@TempDir dir: File) {
        val file = File(dir, "latency-pid1.hlog")
        writeFork(file, forks[0], 1_790_000_000_000L)
        val out = File(dir, "latency")
        HistogramLogProcessor(arrayOf("-i", file.path, "-o", out.path, "-outputValueUnitRatio", "1000")).run()
        val merged = Histogram(LoadClient.HIGHEST_TRACKABLE_MICROS, 3).also { m -> forks[0].forEach(m::add) }
        val distribution = File(dir, "latency.hgrm").readText()
        val footer = Regex("""#\[Max\s*=\s*([0-9.]+),\s*Total count\s*=\s*(\d+)]""").find(distribution)
        assertEquals(merged.maxValue / 1000.0, footer?.groupValues?.get(1)?.toDouble(), distribution)
        assertEquals(merged.totalCount, footer!!.groupValues[2].toLong(), distribution)
        // One row per interval in the interval file, with that interval's count.
        val rows = out.readText()
        forks[0].forEach { assertTrue(rows.contains("I:${it.totalCount} "), rows) }
    }

    @Test
    fun `without a place for it nothing is written, and a closed log takes no more lines`(@TempDir dir: File) {
        var asked = 0
        val none = LatencyLog({ null.also { asked++ } })
        repeat(2) { none.interval(measurement, clientReport(forks[0][0])) }
        assertEquals(1, asked, "asked once")

        val file = File(dir, "latency-pid1.hlog")
        val log = LatencyLog({ file })
        log.interval(measurement, clientReport(forks[0][0]))
        log.close()
        log.interval(measurement, clientReport(forks[0][1]))
        assertEquals(1, read(file).size)
    }

    @Test
    fun `a fork's log goes under the run's directory of the launcher's root`(@TempDir dir: File) {
        val before = System.getProperty(RunFiles.PROPERTY)
        System.setProperty(RunFiles.PROPERTY, dir.path)
        try {
            val params = mapOf("server" to "netty", "concurrency" to "8")
            val file = RunFiles.forkFile(
                "serverbench.benchmarks.NoopBenchmark.hello",
                params,
                LatencyLog.WHAT,
                LatencyLog.EXTENSION,
            )!!
            val pid = ProcessHandle.current().pid()
            assertEquals(File(dir, "NoopBenchmark.hello/concurrency=8,server=netty/latency-pid$pid.hlog"), file)
            assertEquals(LatencyLog.WHAT, RunFiles.what(file))
        } finally {
            if (before == null) {
                System.clearProperty(RunFiles.PROPERTY)
            } else {
                System.setProperty(RunFiles.PROPERTY, before)
            }
        }
    }
}
