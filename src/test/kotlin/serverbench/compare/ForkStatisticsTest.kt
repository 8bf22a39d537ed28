package serverbench.compare

import org.junit.jupiter.api.Test
import java.util.Random
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** Known samples in, known interval and p out (references from SciPy 1.x), and the false-positive rate of A/A. */
class ForkStatisticsTest {
    private fun d(vararg x: Number) = x.map { it.toDouble() }.toDoubleArray()

    @Test
    fun `Fieller's interval of the ratio of means matches the reference`() {
        // scipy: t.ppf(0.975, Welch df at the estimate) in Fieller's quadratic.
        val i = ForkStatistics.ratioInterval(d(10, 11, 12, 13, 14), d(15, 16, 17, 18, 19))!!
        assertEquals(1.2001770381768644, i.low, 1e-9)
        assertEquals(1.688635222727648, i.high, 1e-9)
        val j = ForkStatistics.ratioInterval(d(100, 102, 98, 101, 99), d(103, 97, 105, 100, 102))!!
        assertEquals(0.9766749567557335, j.low, 1e-9)
        assertEquals(1.0519297143332096, j.high, 1e-9)
    }

    @Test
    fun `no interval from one fork a side, nor when base's mean is not clearly above zero`() {
        assertNull(ForkStatistics.ratioInterval(d(10), d(11, 12)))
        assertNull(ForkStatistics.ratioInterval(d(-1, 1, 0.5), d(1, 2, 3)))
        val same = ForkStatistics.ratioInterval(d(5, 5), d(6, 6))!!
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
    fun `A-A comparisons are marked at most 5 % of the time, and the interval covers 1 about 95 % of the time`() {
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
            assertTrue(coverage in 0.93..0.97, "$forks forks: the 95 % interval covered 1 in ${coverage * 100} %")
        }
    }

    @Test
    fun `a real 7 % difference over 5 forks of 2 % spread is marked in the right direction`() {
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
