package serverbench.live

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import kotlin.test.assertTrue

/** The machine's own noise (MachineNoise): a spread, measured, and said with its window. */
class MachineNoiseTest {
    @Test
    fun `a spread of a few short windows is a share above 0, and fewer than 2 windows are refused`() {
        val spread = MachineNoise.spread(windows = 4, windowMillis = 20)
        assertTrue(spread > 0 && spread < 1, "spread $spread")
        assertTrue(MachineNoise.describe(0.031).startsWith("a memory-bound loop's 0.25 s windows spread 3.1 % (sd)"))
        assertThrows<IllegalArgumentException> { MachineNoise.spread(windows = 1) }
    }
}
