package serverbench.metrics

import org.HdrHistogram.Histogram
import org.junit.jupiter.api.Test
import org.openjdk.jmh.util.ListStatistics
import java.util.SplittableRandom
import kotlin.math.cos
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

class PercentileRangeTest {
    @Test
    fun `the range's coverage and the chance of two ranges apart are the order-statistic ones`() {
        assertEquals(0.75, PercentileRange.coverage(3), 1e-12)
        assertEquals(0.9375, PercentileRange.coverage(5), 1e-12)
        assertEquals(1 - 2.0 / 256, PercentileRange.coverage(8), 1e-12)
        assertTrue(PercentileRange.coverage(10) < 0.999 && PercentileRange.coverage(11) >= 0.999)
        assertEquals(0.1, PercentileRange.apartP(3, 3), 1e-12) // 2 of the 20 ways to split 6 values 3 + 3
        assertEquals(2.0 / 252, PercentileRange.apartP(5, 5), 1e-12)
        assertEquals(2.0 / 12_870, PercentileRange.apartP(8, 8), 1e-12)
        assertEquals(PercentileRange.apartP(3, 8), PercentileRange.apartP(8, 3), 1e-15)
        // The 99.9 % level needs 7 iterations a side.
        assertTrue(PercentileRange.apartP(6, 6) > 0.001 && PercentileRange.apartP(7, 7) <= 0.001)
        assertTrue(
            PercentileRange.isPercentile("latency.p99.9") && PercentileRange.isPercentile("latency.uncorrected.p50"),
        )
        assertFalse(PercentileRange.isPercentile("latency.max") || PercentileRange.isPercentile("latency.mean"))
    }

    /**
     * A known distribution: an iteration's [REQUESTS] requests are exponential (mean 1 ms) times the iteration's own
     * factor, lognormal with median 1 (σ 0.3: iterations differ, as GC and JIT make them), recorded in an HdrHistogram
     * as the client records them. Fills [h] with one iteration and returns its p99 in ms, as the benchmark reads it.
     */
    private fun iteration(random: SplittableRandom, h: Histogram): Double {
        h.reset()
        val factor = exp(0.3 * gaussian(random))
        repeat(REQUESTS) { h.recordValue((1000 * factor * -ln(1 - random.nextDouble())).toLong()) }
        return h.getValueAtPercentile(99.0) / 1000.0
    }

    private fun gaussian(random: SplittableRandom): Double {
        // Box-Muller: SplittableRandom has no nextGaussian on JDK 17.
        val u = 1 - random.nextDouble()
        return sqrt(-2 * ln(u)) * cos(2 * Math.PI * random.nextDouble())
    }

    @Test
    fun `in 1000 simulated runs the interval holds the true percentile in the share it claims, not in 99_9 %`() {
        val h = Histogram(1_000_000, 3)
        // The true median per-iteration p99, from 20 001 iterations of their own: its error moves the coverage of a
        // range by far less than the simulation's noise (the coverage is flat at the median).
        val truth = SplittableRandom(2026).let { r -> DoubleArray(20_001) { iteration(r, h) }.sorted()[10_000] }
        val random = SplittableRandom(26)
        val merged = Histogram(1_000_000, 3)
        for (n in listOf(3, 5, 8)) {
            val runs = 1000
            var held = 0
            repeat(runs) {
                merged.reset()
                val values = DoubleArray(n) { iteration(random, h).also { merged.add(h) } }
                // The interval as the benchmark's result carries it: the merged p99 with its per-iteration values.
                val p99 = LatencyResult.PercentileResult(
                    "latency.p99",
                    merged.getValueAtPercentile(99.0) / 1000.0,
                    ListStatistics(values),
                    isMax = false,
                )
                val (low, high) = p99.scoreConfidence.toList()
                if (truth in low..high) held++
            }
            val observed = held.toDouble() / runs
            val claimed = PercentileRange.coverage(n)
            // Three standard errors of a share over 1000 runs: the simulation's own noise, not slack in the claim.
            val noise = 3 * sqrt(claimed * (1 - claimed) / runs)
            assertTrue(observed >= claimed - noise, "$n iterations: held in $observed of runs, claims $claimed")
            // Nor far above it: the claim is what the range has, not a lower bound picked for safety.
            assertTrue(observed <= claimed + 4 / 3.0 * noise, "$n iterations: held in $observed, claims $claimed")
            // What the interval used to be called: 99.9 % is far from what 3 or 5 iterations can give.
            if (n <= 5) assertTrue(observed < 0.999 - 3 * sqrt(0.999 * 0.001 / runs), "$n iterations: $observed")
        }
    }

    private companion object {
        const val REQUESTS = 200
    }
}
