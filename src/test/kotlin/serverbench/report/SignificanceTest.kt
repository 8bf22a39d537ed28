package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File
import kotlin.test.assertEquals

/** The rule the report's baseline marks and the findings' "beyond noise" read. */
class SignificanceTest {
    @Test
    fun `significant only when the intervals do not overlap, in the metric's own direction`() {
        val base = Metric(100.0, 10.0, "ops/s")
        // 105..125 overlaps 90..110
        assertEquals(
            Significance.Change.NONE,
            Significance.of(BenchmarkResult.SCORE, Metric(115.0, 10.0, "ops/s"), base),
        )
        assertEquals(
            Significance.Change.BETTER,
            Significance.of(BenchmarkResult.SCORE, Metric(125.0, 10.0, "ops/s"), base),
        )
        assertEquals(
            Significance.Change.WORSE,
            Significance.of(BenchmarkResult.SCORE, Metric(75.0, 10.0, "ops/s"), base),
        )
        // A percentile's ranges apart count at 0.1 %: over 8 iterations a side (2 ÷ C(16, 8) = 0.016 %), not over 5
        // (0.79 %), nor over counts the file does not give.
        fun p99(score: Double, iterations: Int) = Metric(score, 10.0, "ms", samples = iterations)
        assertEquals(Significance.Change.WORSE, Significance.of("latency.p99", p99(125.0, 8), p99(100.0, 8)))
        assertEquals(Significance.Change.BETTER, Significance.of("latency.p99", p99(75.0, 8), p99(100.0, 8)))
        assertEquals(Significance.Change.NONE, Significance.of("latency.p99", p99(125.0, 5), p99(100.0, 5)))
        assertEquals(Significance.Change.NONE, Significance.of("latency.p99", p99(125.0, 8), base))
        assertEquals(Significance.Change.NONE, Significance.of("latency.p99", p99(115.0, 8), p99(100.0, 8)))
        // Without an interval nothing is significant, except a different count of errors.
        assertEquals(
            Significance.Change.NONE,
            Significance.of(BenchmarkResult.SCORE, Metric(500.0, Double.NaN, "ops/s"), base),
        )
        val errors = Significance.of("errors", Metric(3.0, Double.NaN, "count"), Metric(0.0, Double.NaN, "count"))
        assertEquals(Significance.Change.WORSE, errors)
    }

    @Test
    fun `an asymmetric interval is compared by its two ends, as the result file's scoreConfidence gives them`(
        @TempDir dir: File,
    ) {
        // p99.9 12 ms, per-iteration range [11.5, 30]: JMH's single ± (18) would reach down to -6 and hide the change.
        fun file(name: String, score: Double, error: Double, low: Double, high: Double) = File(dir, name).apply {
            val raw = List(8) { low + (high - low) * it / 7 }
            writeText(
                """[{"benchmark": "serverbench.benchmarks.NoopBenchmark.hello", "params": {"server": "netty"},
                "primaryMetric": {"score": 1000, "scoreError": 10, "scoreUnit": "ops/s"},
                "secondaryMetrics": {"latency.p99.9": {"score": $score, "scoreError": $error,
                "scoreConfidence": [$low, $high], "scoreUnit": "ms", "rawData": [${raw.take(3)}, ${raw.drop(3)}]}}}]""",
            )
        }
        val head = Results.read(file("head.json", 12.0, 18.0, 11.5, 30.0)).single().metric("latency.p99.9")!!
        val base = Results.read(file("base.json", 10.0, 0.1, 9.9, 10.1)).single().metric("latency.p99.9")!!
        assertEquals(11.5, head.low)
        assertEquals(30.0, head.high)
        assertEquals(8, head.samples, "per-iteration values of both forks")
        assertEquals(Significance.Change.WORSE, Significance.of("latency.p99.9", head, base))
        // Older files without scoreConfidence: score ± error, as before.
        assertEquals(Significance.Change.NONE, Significance.of("latency.p99.9", Metric(12.0, 18.0, "ms"), base))
    }
}
