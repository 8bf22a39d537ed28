package serverbench.live

import org.junit.jupiter.api.Test
import kotlin.random.Random
import kotlin.test.assertEquals
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** The order of a live measurement's windows: couples side by side, every block a mirror, sides balanced. */
class InterleavingTest {
    private class Slot(override val side: Side, override val pair: Int, val config: Int) : Interleaving.Slot {
        override val couple: Int get() = pair * 2 + config
    }

    private val slots = Side.entries.flatMap { s -> (0..2).flatMap { p -> (0..1).map { Slot(s, p, it) } } }

    @Test
    fun `each round drives every slot once, a couple's two sides next to each other`() {
        val random = Random(1)
        var previous = emptyList<Slot>()
        repeat(40) { round ->
            val order = Interleaving.order(slots, round, previous, random)
            assertEquals(slots.toSet(), order.toSet())
            order.chunked(2).forEach { (a, b) ->
                assertEquals(a.couple, b.couple)
                assertTrue(a.side != b.side)
            }
            previous = order
        }
    }

    @Test
    fun `an odd round is the even one reversed, so a block is a mirror and each side's mean time is the same`() {
        val random = Random(2)
        var previous = emptyList<Slot>()
        var headFirst = 0
        repeat(200) { round ->
            val order = Interleaving.order(slots, round, previous, random)
            if (round % 2 == 1) assertEquals(previous.reversed(), order)
            if (round % 2 == 0 && order.first().side == Side.HEAD) headFirst++
            // Within a block, each couple's base and head positions add up to the same sum: a linear drift cancels.
            if (round % 2 == 1) {
                for (couple in slots.map { it.couple }.distinct()) {
                    val at = { side: Side, o: List<Slot> -> o.indexOfFirst { it.couple == couple && it.side == side } }
                    val n = order.size
                    assertEquals(
                        at(Side.BASE, previous) + n + at(Side.BASE, order),
                        at(Side.HEAD, previous) + n + at(Side.HEAD, order),
                    )
                }
            }
            previous = order
        }
        assertTrue(headFirst in 30..70, "head first in $headFirst of 100 blocks")
    }

    private fun ratio(ratio: Double, halfWidth: Double) = WindowStatistics.Ratio(
        ratio,
        ratio / (1 + halfWidth),
        ratio * (1 + halfWidth),
        blocks = 8,
        pairs = 1,
        standardError = 0.01,
        degreesOfFreedom = 7.0,
        processSpread = 0.0,
    )

    @Test
    fun `an interval is done within the precision or wholly beyond the decided factor, not before the least blocks`() {
        val plan = LivePlan(minBlocks = 4, precision = 0.025, decidedBeyond = 2.0)
        assertNull(Interleaving.done(plan, 3, ratio(1.0, 0.01)), "before minBlocks")
        assertEquals("req/s within ± 2.5 % (--precision)", Interleaving.done(plan, 4, ratio(1.0, 0.02)))
        assertNull(Interleaving.done(plan, 4, ratio(1.1, 0.05)), "wide and near 1")
        assertNotNull(Interleaving.done(plan, 4, ratio(15.0, 0.2)), "15×: low above 2")
        assertNotNull(Interleaving.done(plan, 4, ratio(0.1, 0.2)), "÷ 10: high below ½")
        assertNull(Interleaving.done(plan, 4, ratio(2.1, 0.2)), "low 1.75 is not beyond 2")
        assertNull(
            Interleaving.done(plan.copy(decidedBeyond = null), 4, ratio(15.0, 0.2)),
            "only the precision ends one",
        )
    }
}
