package serverbench.jmh

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

class FlameOverheadTest {
    private val abba = List(12) { FlameProfiler.profiledIteration(it) }

    @Test
    fun `the 1st and 4th iteration of every four are profiled`() {
        assertEquals(listOf(true, false, false, true, true, false, false, true, true, false, false, true), abba)
    }

    @Test
    fun `a linear drift cancels out of the ABBA estimate`() {
        // Throughput climbing 1 % an iteration (a JIT still improving), profiled iterations 2 % slower.
        val scores = List(12) { i -> 50_000.0 * (1 + 0.01 * i) * (if (abba[i]) 0.98 else 1.0) }
        val cost = assertNotNull(FlameProfiler.Overhead.of(scores))
        assertEquals(2.0, cost.percent, 1e-9)
        assertEquals(0.0, cost.halfWidth, 1e-9)
        assertEquals(3, cost.blocks)
        // Alternating P U P U would have read the drift as extra cost: the earlier iteration of each pair is profiled.
        val alternating = List(12) { i -> 50_000.0 * (1 + 0.01 * i) * (if (i % 2 == 0) 0.98 else 1.0) }
        val naive = 100 * (1 - alternating.filterIndexed { i, _ -> i % 2 == 0 }.average() / alternating.filterIndexed { i, _ -> i % 2 == 1 }.average())
        assertTrue(naive > 2.5, "the naive estimate $naive should be biased by the drift")
    }

    @Test
    fun `equal iterations cost nothing, and noise gives an interval that covers zero`() {
        assertEquals(0.0, FlameProfiler.Overhead.of(List(8) { 40_000.0 })!!.percent, 1e-9)
        val noisy = listOf(100.0, 101.0, 99.0, 98.0, 99.0, 100.0, 100.0, 101.0, 102.0, 100.0, 101.0, 100.0)
        val cost = FlameProfiler.Overhead.of(noisy)!!
        assertTrue(cost.percent - cost.halfWidth < 0 && cost.percent + cost.halfWidth > 0, cost.describe())
        assertTrue(cost.describe().contains("95 % CI") && cost.describe().contains("3 ABBA blocks"), cost.describe())
    }

    @Test
    fun `only complete blocks count, and one block has no interval`() {
        assertNull(FlameProfiler.Overhead.of(listOf(1.0, 2.0, 3.0)))
        val one = FlameProfiler.Overhead.of(listOf(90.0, 100.0, 100.0, 90.0, 1.0, 1000.0, 1000.0))!!
        assertEquals(1, one.blocks)
        assertEquals(10.0, one.percent, 1e-9)
        assertTrue(one.halfWidth.isNaN())
        assertFalse(one.describe().contains("CI"), one.describe())
    }

    @Test
    fun `overhead is a flag`() {
        assertTrue(FlameProfiler("overhead").overhead)
        assertTrue(FlameProfiler("event=ctimer;overhead=true").overhead)
        assertFalse(FlameProfiler("event=cpu").overhead)
        val e = runCatching { FlameProfiler("overhead=10") }.exceptionOrNull()
        assertTrue(e is IllegalArgumentException && e.message!!.contains("overhead takes no value"), e.toString())
    }
}
