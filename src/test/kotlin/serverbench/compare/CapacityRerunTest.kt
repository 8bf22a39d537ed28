package serverbench.compare

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import tools.jackson.databind.json.JsonMapper
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** A live capacity run against the last run of the same jar and command beside it (CapacityRerun). */
class CapacityRerunTest {
    private val mapper = JsonMapper.builder().build()

    private fun write(file: File, identity: String, capacity: String, ended: String = "2026-12-03T15:23:10Z") {
        file.writeText(
            """{"ended":"$ended","machineNoise":0.02,"identity":$identity,
               "rows":[{"family":"Cpu","variant":"completableFuture","params":{"limit":"10000","cpus":"1"},
                        "side":"netty","capacity":$capacity}]}""",
        )
    }

    private val key = CapacityRerun.rowKey(
        "Cpu",
        "completableFuture",
        mapOf("cpus" to "1", "limit" to "10000"),
        "netty",
    )

    @Test
    fun `the run with the same identity that ended last is found, and runs of another jar or command are not`(
        @TempDir dir: File,
    ) {
        val identity = """{"jar":"abc","java":"17","arguments":["server=tomcat,netty","CpuBenchmark"]}"""
        write(File(dir, "capacity-20261203-152300-capacity.json"), identity, "2133.0")
        write(File(dir, "capacity-20261203-120000-capacity.json"), identity, "1000.0", "2026-12-03T12:00:00Z")
        write(File(dir, "mine-20261203-110000-capacity.json"), identity, "1000.0", "2026-12-03T11:00:00Z")
        write(File(dir, "capacity-20261203-154300-capacity.json"), identity.replace("abc", "def"), "500.0")
        write(File(dir, "capacity-20261203-160000-capacity.json"), identity.replace("Cpu", "Json"), "500.0")
        val out = File(dir, "capacity-20261203-170000-capacity.json")
        write(out, identity, "1.0")
        val rerun = assertNotNull(CapacityRerun.find(out, mapper.readTree(identity), mapper))
        assertEquals("capacity-20261203-152300-capacity.json", rerun.file.name)
        assertEquals("15:23 UTC", rerun.ended)
        assertEquals(0.02, rerun.noise)
        assertNull(CapacityRerun.find(out, mapper.readTree(identity.replace("17", "21")), mapper))
    }

    @Test
    fun `two runs of a suite are the same question though scripts-bench names each one's log apart`() {
        val props = listOf("serverbench.log", "serverbench.capacity.repeats")
        val saved = props.associateWith { System.getProperty(it) }
        try {
            System.setProperty("serverbench.log", "jmh-results/capacity-20261204-175710.log")
            val first = CapacityRerun.identity(mapper, listOf("server=tomcat,netty"))
            System.setProperty("serverbench.log", "jmh-results/capacity-20261204-181717.log")
            assertEquals(first, CapacityRerun.identity(mapper, listOf("server=tomcat,netty")))
            System.setProperty("serverbench.capacity.repeats", "2")
            assertFalse(first == CapacityRerun.identity(mapper, listOf("server=tomcat,netty")))
        } finally {
            saved.forEach { (k, v) -> if (v == null) System.clearProperty(k) else System.setProperty(k, v) }
        }
    }

    @Test
    fun `a row more than 10 % apart from the last run's is unstable across sittings, with both figures`(
        @TempDir dir: File,
    ) {
        val identity = """{"jar":"abc"}"""
        write(File(dir, "a-capacity.json"), identity, "2133.0")
        val rerun = assertNotNull(CapacityRerun.find(File(dir, "b-capacity.json"), mapper.readTree(identity), mapper))
        val moved = assertNotNull(rerun.compare(key, 1788.0))
        assertTrue(moved.unstable)
        assertEquals(2133.0 / 1788.0 - 1, assertNotNull(moved.apart), 1e-9)
        assertEquals(
            "unstable across sittings: 19.3 % apart from the last run's 2,133 req/s (15:23 UTC), more than 10.0 %; " +
                "a memory-bound loop's windows spread 14.0 % now, 2.0 % then; plan with the lower",
            rerun.said(moved, 0.14),
        )
        val held = assertNotNull(rerun.compare(key, 2036.0))
        assertFalse(held.unstable)
        assertEquals("within 4.8 % of the last run's 2,133 req/s (15:23 UTC)", rerun.said(held, null))
        assertNull(rerun.compare(key, null), "no capacity now: nothing to compare")
        assertNull(rerun.compare(key.replace("netty", "tomcat"), 2000.0), "a row the last run did not have")
    }

    @Test
    fun `a row the last run held no capacity for is unstable across sittings, and says so`(@TempDir dir: File) {
        val identity = """{"jar":"abc"}"""
        write(File(dir, "a-capacity.json"), identity, "null")
        val rerun = assertNotNull(CapacityRerun.find(File(dir, "b-capacity.json"), mapper.readTree(identity), mapper))
        val after = assertNotNull(rerun.compare(key, 2996.0))
        assertTrue(after.unstable)
        assertNull(after.previous)
        assertEquals(
            "unstable across sittings: the last run (15:23 UTC) held no capacity for this row; a memory-bound " +
                "loop's windows spread 2.0 % then; a rerun says whether this one holds",
            rerun.said(after, null),
        )
        assertNull(rerun.compare(key, null), "no capacity in either run: the row's own label says why")
    }
}
