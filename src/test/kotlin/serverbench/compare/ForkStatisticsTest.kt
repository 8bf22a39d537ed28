package serverbench.compare

import org.junit.jupiter.api.Test
import java.util.Random
import kotlin.test.assertEquals
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
    fun `the smallest detectable change grows with the spread and shrinks with forks`() {
        val narrow = ForkStatistics.minimumDetectable(d(99, 100, 101, 100, 100), d(99, 100, 101, 100, 100))
        val wide = ForkStatistics.minimumDetectable(d(90, 100, 110, 100, 100), d(90, 100, 110, 100, 100))
        assertTrue(narrow < wide, "$narrow vs $wide")
        val more = ForkStatistics.minimumDetectable(
            d(90, 100, 110, 100, 100, 90, 100, 110, 100, 100),
            d(90, 100, 110, 100, 100, 90, 100, 110, 100, 100),
        )
        assertTrue(more < wide, "$more vs $wide")
        // sd 7.07 over 5 forks a side: (t(0.975, 8) + t(0.8, 8)) × sd × sqrt(2 / 5) / 100 = (2.306 + 0.889) × 4.47 %.
        assertEquals((2.306004 + 0.8888895) * Math.sqrt(50.0 * 2 / 5) / 100, wide, 1e-5)
    }

    @Test
    fun `A-A comparisons are marked at most 5 percent of the time, and their interval covers 1 at least 95 percent`() {
        val random = Random(20261125)
        val trials = 4000
        for (forks in listOf(5, 10)) {
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
