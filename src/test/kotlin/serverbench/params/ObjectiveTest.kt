package serverbench.params

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNull

class ObjectiveTest {
    @Test
    fun `a percentile and a limit in ms or s, written without shell metacharacters`() {
        assertEquals(Objective(99.0, 100.0), Objective.parse("p99:100ms"))
        assertEquals(Objective(99.9, 2500.0), Objective.parse("p99.9:2.5s"))
        assertEquals("p99 ≤ 100 ms", Objective.parse("p99:100ms")!!.describe())
        assertEquals("p99.9:250ms", Objective(99.9, 250.0).text)
        assertNull(Objective.parse(Objective.NONE))
    }

    @Test
    fun `anything else is refused in one line that names the parameter and the forms`() {
        for (bad in listOf("p99<=100ms", "p100:1ms", "p0:1ms", "99:100ms", "p99:100", "p99:0ms", "")) {
            assertFalse(Objective.accepts(bad), bad)
        }
        val e = assertThrows<IllegalArgumentException> { Objective.parse("p99<=100ms") }
        assertEquals("objective must be ${Objective.ALLOWED}, was 'p99<=100ms'", e.message)
        ParamRules.requireValid(ParamNames.OBJECTIVE, "p50:2s")
    }
}
