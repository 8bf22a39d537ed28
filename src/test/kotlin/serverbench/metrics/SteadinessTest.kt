package serverbench.metrics

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertIs
import kotlin.test.assertNotNull
import kotlin.test.assertTrue

class SteadinessTest {
    @Test
    fun `Mann-Kendall p is exact for small samples`() {
        // n = 5 strictly increasing: only 1 of 120 orders is as extreme each way, so two-sided p = 2/120.
        assertEquals(2.0 / 120, Steadiness.mannKendallP(listOf(1.0, 2.0, 3.0, 4.0, 5.0)), 1e-12)
        assertEquals(2.0 / 120, Steadiness.mannKendallP(listOf(5.0, 4.0, 3.0, 2.0, 1.0)), 1e-12)
        // one swap: S = 8, P(|S| >= 8) = 2 * (1 + 4) / 120
        assertEquals(10.0 / 120, Steadiness.mannKendallP(listOf(1.0, 3.0, 2.0, 4.0, 5.0)), 1e-12)
        assertEquals(1.0, Steadiness.mannKendallP(listOf(1.0, 3.0, 2.0)), 1e-12)
        // n = 3 cannot reach 0.05: min p = 2/6
        assertEquals(2.0 / 6, Steadiness.mannKendallP(listOf(1.0, 2.0, 3.0)), 1e-12)
    }

    @Test
    fun `Sen's slope ignores one outlier`() {
        assertEquals(1.0, Steadiness.senSlope(listOf(1.0, 2.0, 3.0, 4.0, 5.0)), 1e-12)
        assertEquals(1.0, Steadiness.senSlope(listOf(1.0, 2.0, 30.0, 4.0, 5.0)), 1e-12)
    }

    @Test
    fun `warmup is steady only when the last windows agree and do not drift`() {
        val climbing = listOf(8_000.0, 20_000.0, 35_000.0, 45_000.0, 50_000.0, 52_000.0, 53_000.0, 54_000.0)
        assertFalse(Steadiness.warmedUp(climbing), "still climbing ~2 %/window")
        val level = listOf(54_100.0, 53_900.0, 54_050.0, 54_000.0, 53_950.0)
        assertFalse(Steadiness.warmedUp(climbing + level), "the 5 windows before still climbed")
        assertTrue(Steadiness.warmedUp(climbing + level + level))
        assertFalse(Steadiness.warmedUp(List(9) { 54_000.0 }), "fewer than 10 windows")
        // Tomcat suspendFun at limit 1000 (measured): under 1 % a window, with noise; 5 windows alone looked steady.
        val creep = listOf(3_400.0, 3_480.0, 3_420.0, 3_560.0, 3_520.0, 3_690.0, 3_513.0, 3_690.0, 3_748.0, 3_705.0)
        assertTrue(Steadiness.cv(creep.takeLast(5)) < Steadiness.TOLERANCE)
        assertFalse(Steadiness.warmedUp(creep))
        // A slow climb under the CV limit still fails on its drift: +1.2 % a window.
        val slow = (0 until 10).map { 50_000.0 * (1 + 0.012 * it) }
        assertTrue(Steadiness.cv(slow.takeLast(5)) < Steadiness.TOLERANCE)
        assertFalse(Steadiness.warmedUp(slow))
        // Bursty windows (±8 %) pass only with the tolerance widened for them.
        val bursty = listOf(640.0, 590.0, 690.0, 640.0, 600.0, 610.0, 680.0, 650.0, 590.0, 660.0)
        assertFalse(Steadiness.warmedUp(bursty))
        assertTrue(Steadiness.warmedUp(bursty, tolerance = 0.1))
    }

    private fun why(scores: List<Double>): String? = (Steadiness.judge(scores) as? Steadiness.Verdict.NotSteady)?.why

    @Test
    fun `measured iterations that trend or scatter are not steady`() {
        assertIs<Steadiness.Verdict.Steady>(Steadiness.judge(listOf(54_000.0, 54_300.0, 53_800.0, 54_100.0, 54_050.0)))
        val trend = assertNotNull(why(listOf(9_965.0, 19_549.0, 35_000.0, 40_000.0, 42_000.0)))
        assertTrue(trend.contains("interval") || trend.contains("trend"), trend)
        // Monotone but narrow enough for the interval: the trend test catches it (+6 % first to last).
        val creeping = listOf(50_000.0, 50_700.0, 51_400.0, 52_100.0, 52_800.0, 53_500.0)
        assertTrue(assertNotNull(why(creeping)).contains("trend"))
        // Monotone by chance over a negligible range is not a trend worth a flag.
        assertIs<Steadiness.Verdict.Steady>(Steadiness.judge(listOf(50_000.0, 50_010.0, 50_020.0, 50_030.0, 50_040.0)))
        assertTrue(assertNotNull(why(listOf(6_437.0, 2_000.0, 11_000.0, 6_000.0, 7_000.0))).contains("interval"))
    }

    @Test
    fun `fewer than five measured iterations get no verdict, steady-looking or not`() {
        // At 3 iterations the interval rule flagged a 1 % spread, and no trend test can reach p < 0.05 below 5: a
        // verdict there would be a function of n, not of the server.
        val cases = listOf(
            listOf(50_000.0, 50_500.0, 49_800.0),
            listOf(50_000.0, 50_010.0, 50_020.0),
            listOf(10_000.0, 20_000.0, 30_000.0, 40_000.0),
            listOf(50_000.0, 51_000.0),
            listOf(50_000.0),
        )
        for (scores in cases) {
            val verdict = assertIs<Steadiness.Verdict.TooFew>(Steadiness.judge(scores), "$scores")
            assertTrue(verdict.why.contains("too few iterations to judge"), verdict.why)
            assertTrue(verdict.why.contains("-i 5 or more"), verdict.why)
            assertTrue(verdict.why.contains("only ${scores.size} measured iteration"), verdict.why)
        }
        assertIs<Steadiness.Verdict.NotSteady>(Steadiness.judge(listOf(10_000.0, 20_000.0, 30_000.0, 40_000.0, 5e4)))
    }

    @Test
    fun `one stray window in eight no longer flips a steady row, two still do, and the verdict says which kind`() {
        // Issue 35, the quick suite's tomcat completableFuture: seven iterations within ±3 %, one 22 % low.
        assertIs<Steadiness.Verdict.Steady>(
            Steadiness.judge(listOf(5_730.0, 4_560.0, 5_906.0, 5_882.0, 6_060.0, 5_822.0, 5_713.0, 5_940.0)),
        )
        val twoStray = Steadiness.judge(listOf(5_730.0, 4_560.0, 5_906.0, 5_882.0, 6_060.0, 4_300.0, 5_713.0, 5_940.0))
        val noisy = assertIs<Steadiness.Verdict.NotSteady>(twoStray)
        assertFalse(noisy.warming, noisy.why)
        assertEquals(Steadiness.NOISY_FLAG, noisy.flag)
        assertTrue(noisy.why.endsWith(": noisy"), noisy.why)
        // A steady climb of +7 % over 8 iterations: still warming.
        val climbing = Steadiness.judge((0 until 8).map { 50_000.0 + 500 * it })
        val warming = assertIs<Steadiness.Verdict.NotSteady>(climbing)
        assertTrue(warming.warming, warming.why)
        assertEquals(Steadiness.WARMING_FLAG, warming.flag)
        assertTrue(warming.why.endsWith(": still warming"), warming.why)
    }

    @Test
    fun `the advice names the command that fixes each kind`() {
        assertEquals(
            "warm up longer: `scripts/bench quick -Dserverbench.warmupMaxSeconds=60`",
            SteadinessAdvice.of(Steadiness.WARMING_FLAG, 26.0, "quick"),
        )
        assertEquals(
            "warm up longer: add `-Dserverbench.warmupMaxSeconds=30` before `-jar`",
            SteadinessAdvice.of(Steadiness.WARMING_FLAG, 5.0, null),
        )
        assertEquals(
            "this machine was too noisy: run it again with nothing else busy (`scripts/bench quick`)",
            SteadinessAdvice.of(Steadiness.NOISY_FLAG, 26.0, "quick"),
        )
    }
}
