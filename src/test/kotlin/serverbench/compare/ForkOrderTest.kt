package serverbench.compare

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import serverbench.compare.ForkOrder.Side.BASE
import serverbench.compare.ForkOrder.Side.HEAD
import kotlin.test.assertEquals

class ForkOrderTest {
    @Test
    fun `the sides alternate one fork at a time, each pair in the other order than the one before`() {
        assertEquals(listOf(BASE, HEAD, HEAD, BASE, BASE, HEAD, HEAD, BASE, BASE, HEAD), ForkOrder.of(5))
        assertEquals(listOf(BASE, HEAD), ForkOrder.of(1))
    }

    @Test
    fun `a steady drift adds the same to both sides over an even number of pairs`() {
        for (forks in listOf(2, 4, 6)) {
            val order = ForkOrder.of(forks)
            val drift = { side: ForkOrder.Side -> order.withIndex().filter { it.value == side }.sumOf { it.index } }
            assertEquals(drift(BASE), drift(HEAD), "$forks forks")
            assertEquals(forks, order.count { it == BASE })
        }
    }

    @Test
    fun `no forks is refused`() {
        assertThrows<IllegalArgumentException> { ForkOrder.of(0) }
    }
}
