package serverbench.benchmarks

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith

/** A suite may give one benchmark class its own warmup limit; the others keep the general one. */
class SteadyWarmupLimitTest {
    private fun <T> with(vararg props: Pair<String, String>, block: () -> T): T {
        props.forEach { System.setProperty(it.first, it.second) }
        try {
            return block()
        } finally {
            props.forEach { System.clearProperty(it.first) }
        }
    }

    @Test
    fun `a class's own limit overrides the general one, by simple or full name`() {
        val general = SteadyWarmup.MAX_PROPERTY
        assertEquals(SteadyWarmup.DEFAULT_MAX_SECONDS, SteadyWarmup.maxSeconds("CpuBenchmark"))
        with(general to "30", "$general.BlockingIoBenchmark" to "5") {
            assertEquals(5, SteadyWarmup.maxSeconds("serverbench.benchmarks.BlockingIoBenchmark"))
            assertEquals(5, SteadyWarmup.maxSeconds("BlockingIoBenchmark"))
            assertEquals(30, SteadyWarmup.maxSeconds("CpuBenchmark"))
            assertEquals(30, SteadyWarmup.maxSeconds(null))
        }
        val e = assertFailsWith<IllegalArgumentException> {
            with("$general.CpuBenchmark" to "soon") { SteadyWarmup.maxSeconds("CpuBenchmark") }
        }
        assertEquals("-D$general.CpuBenchmark must be an integer >= 1 (seconds), was 'soon'", e.message)
    }
}
