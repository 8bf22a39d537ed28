package serverbench.live

import org.junit.jupiter.api.Test
import serverbench.metrics.CapacitySearch
import serverbench.metrics.CapacityStep
import kotlin.math.PI
import kotlin.math.exp
import kotlin.math.sin
import kotlin.random.Random
import kotlin.random.asJavaRandom
import kotlin.test.assertEquals
import kotlin.test.assertNotNull
import kotlin.test.assertTrue

/**
 * The interleaved capacity search on stub servers: each meets the objective up to a capacity that drifts with the
 * machine (± [DRIFT] over minutes, a sine of 3-6 min with a random phase, shared by every side, as the machine's
 * drift is) plus a step's own noise; one step takes [STEP_SECONDS].
 */
class InterleavedCapacityTest {
    private fun step(rate: Double, met: Boolean) = CapacityStep(
        rate, rate, rate, 1.0, 2.0, 2.0, 0, 0,
        if (met) CapacityStep.Verdict.MET else CapacityStep.Verdict.MISSED,
        if (met) "" else "p99 300 ms > p99 ≤ 250 ms",
    )

    private val plan = InterleavedCapacity.Plan(CapacitySearch.Limits(start = 100.0))

    /** One search of stubs of [capacities] req/s on a drifting machine; its sides' outcomes and steps taken. */
    private fun search(
        random: Random,
        capacities: List<Double>,
        drift: Double = DRIFT,
        noise: Double = 0.01,
    ): List<InterleavedCapacity.Side> {
        val gauss = random.asJavaRandom()
        val period = 180 + random.nextDouble() * 180
        val phase = random.nextDouble() * 2 * PI
        var t = 0.0
        return InterleavedCapacity(capacities.size, plan, random) { side, rate ->
            val machine = 1 + drift * sin(2 * PI * t / period + phase)
            t += STEP_SECONDS
            step(rate, rate <= capacities[side] * machine * exp(noise * gauss.nextGaussian()))
        }.run()
    }

    @Test
    fun `a steady stub's capacity is bracketed within the precision, confirmed, and said as holding`() {
        val sides = search(Random(1), listOf(1000.0), drift = 0.0, noise = 0.0)
        val side = sides.single()
        val capacity = assertNotNull(side.capacity, side.label)
        assertTrue(capacity in 970.0..1000.0, "$capacity: ${side.label}")
        assertEquals(plan.repeats, side.estimates.size)
        assertTrue(side.stable, side.label)
        assertTrue(side.label.startsWith("holds: met the objective in 3 steps in a row at"), side.label)
        // The last three steps are the confirmation, at the capacity, each met.
        assertTrue(side.steps.takeLast(3).all { it.rate == capacity && it.verdict == CapacityStep.Verdict.MET })
        assertTrue(side.steps.size <= plan.maxSteps)
    }

    @Test
    fun `the steps a steady stub's search is expected to take (the run's estimate) are within a quarter of them`() {
        val side = search(Random(3), listOf(1000.0), drift = 0.0, noise = 0.0).single()
        val expected = InterleavedCapacity.expectedSteps(plan, LiveCapacity.ladderSteps(1000.0, 100.0))
        assertTrue(
            expected in (0.75 * side.steps.size).toInt()..(1.25 * side.steps.size).toInt(),
            "$expected vs " +
                "${side.steps.size}",
        )
    }

    @Test
    fun `an interrupt ends every search before its next step, keeping its steps and searches, with no capacity`() {
        var taken = 0
        val sides = InterleavedCapacity(2, plan, Random(4), { taken >= 30 }) { _, rate ->
            taken++
            step(rate, rate <= 1000)
        }.run()
        assertEquals(30, sides.sumOf { it.steps.size })
        for (side in sides) {
            assertEquals(null, side.capacity, side.label)
            assertTrue(side.label.startsWith("interrupted after ${side.steps.size} steps"), side.label)
            assertTrue(side.estimates.isNotEmpty(), "the first search ended before the interrupt: ${side.label}")
        }
    }

    @Test
    fun `a rate that met in the searches and tips when repeated is not the capacity`() {
        // Meets up to 1000 req/s, except that every other step above 950 misses: the knee, where a server tips.
        var n = 0
        val sides = InterleavedCapacity(1, plan, Random(2)) { _, rate ->
            n++
            step(rate, rate <= 950 || (rate <= 1000 && n % 2 == 0))
        }.run()
        val capacity = assertNotNull(sides.single().capacity, sides.single().label)
        assertTrue(capacity <= 950, "$capacity held: ${sides.single().label}")
    }

    @Test
    fun `two identical stubs on a drifting machine, the ratio contains 1 in at least 90 % of 300 searches`() {
        val random = Random(56)
        var contains = 0
        repeat(RUNS) {
            val (a, b) = search(random, listOf(1000.0, 1000.0))
            val ratio = assertNotNull(InterleavedCapacity.ratio(a, b), "${a.label} / ${b.label}")
            if (ratio.low <= 1.0 && ratio.high >= 1.0) contains++
        }
        assertTrue(contains >= 0.90 * RUNS, "contains 1 in $contains of $RUNS")
    }

    @Test
    fun `a 10 % difference on a drifting machine is found in at least 80 % of 300 searches, never the wrong way`() {
        val random = Random(57)
        var found = 0
        var wrong = 0
        repeat(RUNS) {
            val (a, b) = search(random, listOf(1100.0, 1000.0))
            val ratio = assertNotNull(InterleavedCapacity.ratio(a, b))
            if (ratio.low > 1.0) found++
            if (ratio.high < 1.0) wrong++
        }
        assertTrue(found >= 0.80 * RUNS, "found in $found of $RUNS")
        assertEquals(0, wrong)
    }

    @Test
    fun `searched one after the other, the same drift would spread the capacities far more than interleaved`() {
        // Why the sides advance together: each side's own search, run alone on the drifting machine, lands on
        // another part of the drift.
        val random = Random(58)
        val alone = (1..100).map {
            search(random, listOf(1000.0)).single().estimates.first()
        }
        val spread = InterleavedCapacity.logSpread(alone)
        val together = (1..100).map {
            val (a, b) = search(random, listOf(1000.0, 1000.0))
            assertNotNull(InterleavedCapacity.ratio(a, b)).ratio
        }
        val ratios = InterleavedCapacity.logSpread(together)
        assertTrue(spread > 3 * ratios, "alone, first searches spread by $spread; interleaved, the ratios by $ratios")
    }

    private companion object {
        const val DRIFT = 0.20
        const val STEP_SECONDS = 5.0
        const val RUNS = 300
    }
}
