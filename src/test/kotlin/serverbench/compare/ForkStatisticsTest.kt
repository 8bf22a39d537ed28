package serverbench.compare

import org.junit.jupiter.api.Test
import java.util.Random
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * Known samples in, known interval and p out (references from SciPy 1.x and by hand), and the false-positive rate of
 * A/A.
 */
class ForkStatisticsTest {
    private fun d(vararg x: Number) = x.map { it.toDouble() }.toDoubleArray()

    @Test
    fun `the ratio and its interval are the fork-to-fork ratios' median and order statistics the U test sets`() {
        // By hand: 25 ratios of 15..19 over 10..14; P(U <= 2) = 4 / 252 <= 0.025 < P(U <= 3), so the 3rd smallest
        // and the 3rd largest bound the interval (15 / 13 and 19 / 11); the median is 17 / 12.
        val b = d(10, 11, 12, 13, 14)
        val h = d(15, 16, 17, 18, 19)
        assertEquals(17.0 / 12, ForkStatistics.ratio(b, h), 1e-12)
        val i = ForkStatistics.ratioInterval(b, h)!!
        assertEquals(15.0 / 13, i.low, 1e-12)
        assertEquals(19.0 / 11, i.high, 1e-12)
        val j = ForkStatistics.ratioInterval(d(100, 102, 98, 101, 99), d(103, 97, 105, 100, 102))!!
        assertEquals(0.97, j.low, 1e-12)
        assertEquals(103.0 / 98, j.high, 1e-12)
        // 10 a side: P(U <= 23) <= 0.025 < P(U <= 24) (the tables' critical value), so the 24th from each end.
        val base = DoubleArray(10) { 100.0 + it }
        val head = DoubleArray(10) { 1.05 * (109 - it) }
        assertEquals(1.05, ForkStatistics.ratio(base, head), 1e-12)
        val k = ForkStatistics.ratioInterval(base, head)!!
        assertEquals(1.02, k.low, 1e-12)
        assertEquals(1.0808823529411764, k.high, 1e-12)
    }

    @Test
    fun `no interval from too few forks for 95 percent, nor from figures not above zero`() {
        assertNull(ForkStatistics.ratioInterval(d(10), d(11, 12)))
        assertNull(ForkStatistics.ratioInterval(d(10, 11, 12), d(11, 12, 13)))
        assertNull(ForkStatistics.ratioInterval(d(-1, 1, 0.5, 2), d(1, 2, 3, 4)))
        val same = ForkStatistics.ratioInterval(d(5, 5, 5, 5), d(6, 6, 6, 6))!!
        assertEquals(1.2, same.low, 1e-12)
        assertEquals(1.2, same.high, 1e-12)
    }

    @Test
    fun `Mann-Whitney's exact p matches the reference, ties included`() {
        // scipy.stats.mannwhitneyu(method="exact"): complete separation of 5 and 5 is 2 / C(10, 5).
        assertEquals(2.0 / 252, ForkStatistics.mannWhitney(d(10, 11, 12, 13, 14), d(15, 16, 17, 18, 19)), 1e-12)
        // Ties (100 and 102 twice): all 252 splits of the mid-ranks, 96 as far from the mean as observed. SciPy's
        // method="exact" gives 106 / 252 here because its table assumes no ties.
        assertEquals(96.0 / 252, ForkStatistics.mannWhitney(d(100, 102, 98, 101, 99), d(103, 97, 105, 100, 102)), 1e-12)
        assertEquals(1.0, ForkStatistics.mannWhitney(d(1, 2, 3), d(1, 2, 3)), 1e-12)
        // scipy.stats.permutation_test of the rank sum over all splits: ties take mid-ranks.
        assertEquals(0.21428571428571427, ForkStatistics.mannWhitney(d(1, 2, 2, 3, 4), d(2, 3, 3, 5, 6)), 1e-12)
        // Beyond the exact table, the normal approximation: far apart is far below 0.001.
        val a = DoubleArray(40) { it.toDouble() }
        val b = DoubleArray(40) { 100.0 + it }
        assertTrue(ForkStatistics.mannWhitney(a, b) < 1e-6)
    }

    @Test
    fun `detectable is the estimate's distance to the interval's farther end, from the test that marks`() {
        // 10..14 against 15..19: head ÷ base 17 / 12 in 15 / 13 – 19 / 11 (above); the low end is the farther.
        val detectable = ForkStatistics.minimumDetectable(d(10, 11, 12, 13, 14), d(15, 16, 17, 18, 19))
        assertEquals((17.0 / 12) / (15.0 / 13) - 1, detectable, 1e-12)
        // 3 forks a side can never be marked at 95 %: nothing is detectable (Welch's t gave a finite figure).
        assertTrue(ForkStatistics.minimumDetectable(d(99, 100, 101), d(99, 100, 101)).isNaN())
        assertTrue(ForkStatistics.minimumDetectable(d(10, 11), d(15, 16)).isNaN())
        // By definition: head's forks moved from "no difference" by just more than it, either way, are marked; by just
        // less, on the side it comes from, not.
        val random = Random(26)
        repeat(200) {
            val base = DoubleArray(6) { 100 * (1 + 0.03 * random.nextGaussian()) }
            val head = DoubleArray(6) { 100 * (1 + 0.03 * random.nextGaussian()) }
            val least = ForkStatistics.minimumDetectable(base, head)
            val ratio = ForkStatistics.ratio(base, head)
            fun marked(change: Double): Boolean {
                val moved = DoubleArray(head.size) { head[it] / ratio * change }
                return ForkStatistics.significant(
                    ForkStatistics.mannWhitney(base, moved),
                    ForkStatistics.ratioInterval(base, moved),
                )
            }
            assertTrue(marked((1 + least) * 1.001) && marked((1 - least) * 0.999), "$least")
            assertFalse(marked((1 + least) * 0.999) && marked((1 - least) * 1.001), "$least")
        }
    }

    @Test
    fun `the chance of a mark is the exact test's real level, 0 below 4 forks a side`() {
        // 2 / C(2n, n) is the smallest p: n = 2 gives 0.333, n = 3 0.1, neither below 0.05.
        assertEquals(0.0, ForkStatistics.markingLevel(2, 2))
        assertEquals(0.0, ForkStatistics.markingLevel(3, 3))
        assertEquals(2.0 / 70, ForkStatistics.markingLevel(4, 4), 1e-12)
        // P(U <= 2) = 4 / 252 for 5 a side: the two tails 8 / 252, about 3 %.
        assertEquals(8.0 / 252, ForkStatistics.markingLevel(5, 5), 1e-12)
        // 6 a side: U <= 5 in 19 of the C(12, 6) = 924 orders.
        assertEquals(38.0 / 924, ForkStatistics.markingLevel(6, 6), 1e-12)
        assertEquals(4, ForkStatistics.minimumForks)
    }

    @Test
    fun `a real change the size of a run's typical detectable is marked about half the time, twice it nearly always`() {
        val random = Random(11)
        fun forks(mean: Double) = DoubleArray(6) { mean * (1 + 0.02 * random.nextGaussian()) }
        val typical = DoubleArray(400) { ForkStatistics.minimumDetectable(forks(100.0), forks(100.0)) }
            .sorted()[200]
        fun rate(change: Double): Double {
            var marked = 0
            repeat(1000) {
                val base = forks(100.0)
                val head = forks(100.0 * (1 + change))
                if (ForkStatistics.significant(
                        ForkStatistics.mannWhitney(base, head),
                        ForkStatistics.ratioInterval(base, head),
                    )
                ) {
                    marked++
                }
            }
            return marked / 1000.0
        }
        assertTrue(rate(typical) in 0.4..0.75, "${rate(typical)} at $typical")
        assertTrue(rate(2 * typical) >= 0.95, "${rate(2 * typical)} at ${2 * typical}")
    }

    @Test
    fun `A-A comparisons are marked at most 5 percent of the time, and their interval covers 1 at least 95 percent`() {
        val random = Random(20261125)
        val trials = 4000
        for (forks in listOf(5, 6, 10)) {
            var marked = 0
            var covered = 0
            repeat(trials) {
                val a = DoubleArray(forks) { 50_000 + 2_500 * random.nextGaussian() }
                val b = DoubleArray(forks) { 50_000 + 2_500 * random.nextGaussian() }
                val interval = ForkStatistics.ratioInterval(a, b)
                val p = ForkStatistics.mannWhitney(a, b)
                if (ForkStatistics.significant(p, interval)) marked++
                if (interval != null && !interval.excludes(1.0)) covered++
            }
            val rate = marked.toDouble() / trials
            val coverage = covered.toDouble() / trials
            assertTrue(rate <= 0.05, "$forks forks: A/A marked ${rate * 100} % of the time")
            val level = ForkStatistics.markingLevel(forks, forks)
            assertEquals(level, rate, 0.012, "$forks forks: the table's chance of a mark")
            assertTrue(coverage in 0.945..0.985, "$forks forks: the 95 % interval covered 1 in ${coverage * 100} %")
        }
    }

    @Test
    fun `a real 7 percent difference over 5 forks of 2 percent spread is marked in the right direction`() {
        val random = Random(7)
        var marked = 0
        repeat(200) {
            val a = DoubleArray(5) { 100 * (1 + 0.02 * random.nextGaussian()) }
            val b = DoubleArray(5) { 93 * (1 + 0.02 * random.nextGaussian()) }
            val interval = ForkStatistics.ratioInterval(a, b)
            if (ForkStatistics.significant(ForkStatistics.mannWhitney(a, b), interval) && interval!!.high < 1) marked++
        }
        assertTrue(marked >= 190, "marked $marked of 200")
    }
}
