package serverbench.compare

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import serverbench.compare.ForkOrder.Side.BASE
import serverbench.compare.ForkOrder.Side.HEAD
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

class ForkOrderTest {
    @Test
    fun `the sides alternate one fork at a time, each pair in the other order than the one before`() {
        assertEquals(listOf(BASE, HEAD, HEAD, BASE, BASE, HEAD, HEAD, BASE), ForkOrder.of(4))
        assertEquals(listOf(BASE, HEAD, HEAD, BASE), ForkOrder.of(2))
    }

    @Test
    fun `a steady drift adds the same to both sides - their mean positions coincide for every allowed count`() {
        val allowed = (1..40).filter(ForkOrder::allowed)
        assertEquals(listOf(4, 6, 8), allowed.take(3))
        for (forks in allowed) {
            val order = ForkOrder.of(forks)
            val mean = { side: ForkOrder.Side ->
                order.withIndex().filter { it.value == side }.map { it.index }.average()
            }
            assertEquals(mean(BASE), mean(HEAD), "$forks forks")
            assertEquals(forks, order.count { it == BASE })
            assertEquals(forks, order.count { it == HEAD })
        }
    }

    @Test
    fun `an odd count is not run - no order of its forks cancels a drift`() {
        for (forks in listOf(1, 3, 5, 7)) {
            assertFalse(ForkOrder.allowed(forks), "$forks")
            assertThrows<IllegalArgumentException> { ForkOrder.of(forks) }
        }
        assertThrows<IllegalArgumentException> { ForkOrder.of(0) }
        // Fewer than 4 a side can never be marked: allowed by the order, not by the comparison.
        assertFalse(ForkOrder.allowed(2))
        assertTrue(ForkOrder.allowed(6))
    }
}
