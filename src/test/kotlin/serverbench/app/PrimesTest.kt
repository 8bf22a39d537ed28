package serverbench.app

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

class PrimesTest {
    @Test
    fun `sum of primes up to known limits`() {
        assertEquals(2, sumPrimes(2))
        assertEquals(17, sumPrimes(10))
        assertEquals(76127, sumPrimes(1000))
        assertEquals(454396537, sumPrimes(100_000))
        assertEquals(3709507114, sumPrimes(300_000))
    }

    @Test
    fun `trial division agrees with a sieve`() {
        val n = 5000
        val composite = BooleanArray(n + 1)
        for (i in 2..n) if (!composite[i]) for (j in i * 2..n step i) composite[j] = true
        for (i in 2..n) assertEquals(!composite[i], isPrime(i), "isPrime($i)")
        // Beyond the sieve: a prime and its odd neighbour, the product of 3 and 7 and 13 and 29.
        assertTrue(isPrime(7919))
        assertFalse(isPrime(7917))
    }

    @Test
    fun `checkpoint runs once per full batch and never changes the result`() {
        var calls = 0
        assertEquals(76127, sumPrimes(1000, batchSize = 100) { calls++ })
        assertEquals(9, calls) // 999 numbers (2..1000): 9 full batches of 100
        calls = 0
        sumPrimes(1000, batchSize = 1) { calls++ }
        assertEquals(999, calls)
    }

    @Test
    fun `bad arguments are rejected, naming the parameter`() {
        assertEquals("limit must be >= 2, was 1", assertThrows<IllegalArgumentException> { sumPrimes(1) }.message)
        val batch = assertThrows<IllegalArgumentException> { sumPrimes(10, batchSize = 0) }
        assertEquals("batchSize must be >= 1, was 0", batch.message)
    }
}
