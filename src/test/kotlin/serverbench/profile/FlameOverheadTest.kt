package serverbench.profile

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.openjdk.jmh.profile.ProfilerException
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** `-prof flame:overhead`'s estimate from ABBA blocks, and the options that ask for it. */
class FlameOverheadTest {
    private val abba = List(12) { Overhead.profiledIteration(it) }

    @Test
    fun `the 1st and 4th iteration of every four are profiled`() {
        assertEquals(listOf(true, false, false, true, true, false, false, true, true, false, false, true), abba)
    }

    @Test
    fun `a linear drift cancels out of the ABBA estimate`() {
        // Throughput climbing 1 % an iteration (a JIT still improving), profiled iterations 2 % slower.
        val scores = List(12) { i -> 50_000.0 * (1 + 0.01 * i) * (if (abba[i]) 0.98 else 1.0) }
        val cost = assertNotNull(Overhead.of(scores))
        assertEquals(2.0, cost.percent, 1e-9)
        assertEquals(0.0, cost.halfWidth, 1e-9)
        assertEquals(3, cost.blocks)
        // The same drift with no cost at all reads as none: a drift alone never looks like overhead.
        val driftOnly = assertNotNull(Overhead.of(List(12) { i -> 50_000.0 * (1 + 0.01 * i) }))
        assertEquals(0.0, driftOnly.percent, 1e-9)
    }

    @Test
    fun `equal iterations cost nothing, and noise gives an interval that covers zero`() {
        assertEquals(0.0, Overhead.of(List(8) { 40_000.0 })!!.percent, 1e-9)
        val noisy = listOf(100.0, 101.0, 99.0, 98.0, 99.0, 100.0, 100.0, 101.0, 102.0, 100.0, 101.0, 100.0)
        val cost = Overhead.of(noisy)!!
        assertTrue(cost.percent - cost.halfWidth < 0 && cost.percent + cost.halfWidth > 0, cost.describe())
        assertTrue(cost.describe().contains("95 % CI") && cost.describe().contains("3 ABBA blocks"), cost.describe())
    }

    @Test
    fun `only complete blocks count, and one block has no interval`() {
        assertNull(Overhead.of(listOf(1.0, 2.0, 3.0)))
        val one = Overhead.of(listOf(90.0, 100.0, 100.0, 90.0, 1.0, 1000.0, 1000.0))!!
        assertEquals(1, one.blocks)
        assertEquals(10.0, one.percent, 1e-9)
        assertTrue(one.halfWidth.isNaN())
        assertFalse(one.describe().contains("CI"), one.describe())
    }

    @Test
    fun `overhead is a flag, and bad options fail in one line that says what is allowed`() {
        assertTrue(FlameProfiler("overhead").overhead)
        assertTrue(FlameProfiler("event=ctimer;overhead=true").overhead)
        assertFalse(FlameProfiler("event=cpu").overhead)
        assertFalse(FlameProfiler("overhead=false").overhead)
        val cases = mapOf(
            "overhead=10" to "flame: overhead takes no value (or true/false), was '10'",
            "event=bogus" to
                "flame: event must be one of cpu, wall, alloc, lock, ctimer, itimer, cpu-clock, was 'bogus'",
            "threads=some" to "flame: threads must be server or all, was 'some'",
            "pid=me" to "flame: pid must be a process id, was 'me'",
            "colour=red" to "flame: ",
        )
        for ((line, message) in cases) {
            val e = assertThrows<ProfilerException>(line) { FlameProfiler(line) }
            assertTrue(e.message!!.startsWith(message), "$line: ${e.message}")
            assertEquals(1, e.message!!.lines().size, "$line: ${e.message}")
        }
    }

    @Test
    fun `options are typed and described, and help lists them`() {
        val options = FlameOptions("event=alloc;interval=512k;threads=all;dir=/tmp/graphs;session=S")
        assertEquals("alloc", options.event)
        assertEquals("512k", options.interval)
        assertEquals("all", options.threads)
        assertEquals("/tmp/graphs", options.dir.path)
        assertEquals("S", options.session)
        assertNull(options.pid)
        assertEquals(1234L, FlameOptions("pid=1234").pid)
        assertNull(options.help)
        val help = assertNotNull(FlameOptions("help").help)
        for (name in listOf("event", "interval", "threads", "dir", "cstack", "overhead")) {
            assertTrue(help.contains(name), "help lacks $name:\n$help")
        }
    }
}
