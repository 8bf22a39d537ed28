package serverbench.live

import org.junit.jupiter.api.Test
import kotlin.random.Random
import kotlin.test.assertEquals
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
}
