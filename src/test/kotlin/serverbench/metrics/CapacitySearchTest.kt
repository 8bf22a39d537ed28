package serverbench.metrics

import org.HdrHistogram.Histogram
import org.junit.jupiter.api.Test
import serverbench.params.Objective
import kotlin.test.assertEquals
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

class CapacitySearchTest {
    private fun step(rate: Double, verdict: CapacityStep.Verdict) = CapacityStep(
        rate, rate, rate, 1.0, 2.0, 2.0, 0, 0, verdict,
        if (verdict ==
            CapacityStep.Verdict.MET
        ) {
            ""
        } else {
            "x"
        },
    )

    /** A server that meets the objective up to [capacity] req/s, and a client that keeps up to [clientLimit]. */
    private fun server(capacity: Double, clientLimit: Double = Double.MAX_VALUE): (Double) -> CapacityStep = { r ->
        when {
            r > clientLimit -> step(r, CapacityStep.Verdict.CLIENT)
            r <= capacity -> step(r, CapacityStep.Verdict.MET)
            else -> step(r, CapacityStep.Verdict.MISSED)
        }
    }

    @Test
    fun `a known capacity is bracketed within the precision, and the rate found is confirmed last`() {
        val outcome = CapacitySearch(CapacitySearch.Limits(start = 100.0), server(1_234.0)).run()
        assertEquals(CapacitySearch.Kind.BRACKETED, outcome.kind)
        val low = assertNotNull(outcome.low)
        val high = assertNotNull(outcome.high)
        assertTrue(low <= 1_234 && high > 1_234, "$low..$high")
        assertTrue((high - low) / low <= 0.03, "$low..$high")
        assertEquals(low, outcome.steps.last().rate)
        assertTrue(outcome.steps.size <= 16)
        // Both ends were measured: the bracket is two steps, not an extrapolation.
        assertTrue(outcome.steps.any { it.rate == high && it.verdict == CapacityStep.Verdict.MISSED })
    }

    @Test
    fun `a first step that misses sends the ladder down`() {
        val outcome = CapacitySearch(CapacitySearch.Limits(start = 1_000.0), server(30.0)).run()
        assertEquals(CapacitySearch.Kind.BRACKETED, outcome.kind)
        assertTrue(outcome.low!! <= 30 && outcome.high!! > 30)
    }

    @Test
    fun `met at the highest rate allowed is a lower bound that says why`() {
        val outcome = CapacitySearch(CapacitySearch.Limits(start = 100.0, max = 500.0), server(10_000.0)).run()
        assertEquals(CapacitySearch.Kind.LOWER_BOUND, outcome.kind)
        assertEquals(500.0, outcome.low)
        assertNull(outcome.high)
        assertTrue("highest rate" in outcome.why, outcome.why)
    }

    @Test
    fun `a client that cannot keep the schedule ends the search as the load generator's limit`() {
        val outcome = CapacitySearch(CapacitySearch.Limits(start = 100.0), server(1e9, clientLimit = 3_000.0)).run()
        assertEquals(CapacitySearch.Kind.CLIENT_SATURATED, outcome.kind)
        assertEquals(1_600.0, outcome.low)
        assertTrue("not the server's" in outcome.why, outcome.why)
        assertTrue(outcome.describe().startsWith("limited by the load generator"), outcome.describe())
    }

    @Test
    fun `a rate that met the objective and then missed it at its confirmation is inconclusive`() {
        val seen = HashSet<Double>()
        val flaky: (Double) -> CapacityStep = { r ->
            val again = !seen.add(r)
            step(r, if (r <= 1_000 && !again) CapacityStep.Verdict.MET else CapacityStep.Verdict.MISSED)
        }
        val outcome = CapacitySearch(CapacitySearch.Limits(start = 100.0), flaky).run()
        assertEquals(CapacitySearch.Kind.INCONCLUSIVE, outcome.kind)
        assertTrue("too noisy" in outcome.why, outcome.why)
    }

    @Test
    fun `missed at every rate down to the floor is not met`() {
        val outcome = CapacitySearch(CapacitySearch.Limits(start = 100.0), server(0.0)).run()
        assertEquals(CapacitySearch.Kind.NOT_MET, outcome.kind)
        assertNull(outcome.low)
    }

    @Test
    fun `the step limit stops the bisection, keeps the confirmation, and says how wide the bracket is`() {
        val outcome = CapacitySearch(CapacitySearch.Limits(start = 100.0, maxSteps = 6), server(1_234.0)).run()
        assertEquals(6, outcome.steps.size)
        assertEquals(CapacitySearch.Kind.BRACKETED, outcome.kind)
        assertTrue("step limit" in outcome.why, outcome.why)
        assertEquals(outcome.low, outcome.steps.last().rate)
    }

    private fun histogram(vararg millis: Long) = Histogram(3).apply { millis.forEach { recordValue(it * 1000) } }

    private fun figures(
        latency: Histogram,
        scheduled: Long = 100,
        errors: Long = 0,
        unanswered: Int = 0,
        saturated: String? = null,
    ) = CapacityStep.Figures(
        rate = 100.0, windowSeconds = 1.0, latencyMicros = latency, successes = latency.totalCount,
        errors = errors, unanswered = unanswered, unansweredWaitMicros = 2_000_000, scheduled = scheduled, late = 0,
        capReached = false, clientSaturated = saturated,
    )

    private val p99 = Objective(99.0, 100.0)

    @Test
    fun `a step meets the objective only with no errors, its percentile within it and the rate served`() {
        val fast = histogram(*LongArray(100) { 10 })
        assertEquals(CapacityStep.Verdict.MET, CapacityStep.judge(p99, figures(fast)).verdict)
        assertEquals(CapacityStep.Verdict.MISSED, CapacityStep.judge(p99, figures(fast, errors = 1)).verdict)
        val slow = histogram(*LongArray(100) { if (it < 97) 10 else 500 })
        assertEquals(CapacityStep.Verdict.MISSED, CapacityStep.judge(p99, figures(slow)).verdict)
        val half = histogram(*LongArray(50) { 10 })
        assertEquals(CapacityStep.Verdict.MISSED, CapacityStep.judge(p99, figures(half)).verdict)
    }

    @Test
    fun `requests never answered count at their wait, so an overload cannot look fast`() {
        val answered = histogram(*LongArray(98) { 10 })
        val step = CapacityStep.judge(p99, figures(answered, unanswered = 2))
        assertEquals(CapacityStep.Verdict.MISSED, step.verdict)
        assertTrue(step.objectiveMillis >= 2_000, "${step.objectiveMillis}")
    }

    @Test
    fun `a step the client could not send on schedule, or ran saturated, does not count`() {
        val fast = histogram(*LongArray(100) { 10 })
        assertEquals(CapacityStep.Verdict.CLIENT, CapacityStep.judge(p99, figures(fast, scheduled = 97)).verdict)
        val saturated = CapacityStep.judge(p99, figures(fast, saturated = "the load client's thread used 0.95"))
        assertEquals(CapacityStep.Verdict.CLIENT, saturated.verdict)
        assertEquals(CapacityStep.Verdict.MET, CapacityStep.judge(p99, figures(fast, scheduled = 99)).verdict)
    }
}
