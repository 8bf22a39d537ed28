package serverbench.metrics

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue

class ResourceMeterTest {
    private fun allocateOnAThreadThatEnds() = Thread { ByteArray(8 shl 20).also { it[0] = 1 } }.apply {
        start()
        join()
    }

    @Test
    fun `a thread that ended during the iteration still counts (HotSpot's total allocated bytes)`() {
        val meter = ResourceMeter()
        meter.begin()
        allocateOnAThreadThatEnds()
        val report = meter.end()
        assertNull(report.allocLowerBound, "exact: no flag")
        assertTrue(report.allocatedBytes >= 8 shl 20, "allocated ${report.allocatedBytes}")
    }

    @Test
    fun `counting live threads only, the figure is flagged a lower bound when threads came and went`() {
        val meter = ResourceMeter(useTotal = false)
        meter.begin()
        allocateOnAThreadThatEnds()
        assertEquals(true, meter.end().allocLowerBound)
    }
}
