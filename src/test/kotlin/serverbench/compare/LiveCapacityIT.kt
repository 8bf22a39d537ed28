package serverbench.compare

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.benchmarks.Jar
import serverbench.testing.runProcess
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.minutes

/**
 * The live capacity (LiveCapacityMain) on the built jar, as scripts/bench runs it: a Tomcat of 10 threads and a
 * 100 ms blocking call (capacity 100 req/s), a short plan (1 s steps, 2 searches, 1 confirmation, 5 s of warmup).
 * These runs check behaviour, not figures: the estimate before anything starts, a line a row, the JSON with every
 * step, no server left; and Ctrl-C keeps the steps measured.
 */
class LiveCapacityIT {
    private fun command(out: File) = listOf(
        File(System.getProperty("java.home"), "bin/java").path,
        "-Dserverbench.capacity.stepSeconds=1",
        "-Dserverbench.capacity.repeats=2",
        "-Dserverbench.capacity.confirmations=1",
        "-Dserverbench.warmupMaxSeconds=5",
        "-cp",
        Jar.path.path,
        "serverbench.compare.LiveCapacityMain",
        "--sides",
        "server=tomcat",
        "--out",
        out.path,
        "BlockingIoBenchmark.direct$",
        "-p",
        "tomcatMaxThreads=10",
        "-p",
        "delayMs=100",
        "-p",
        "objective=p99:250ms",
    )

    private fun assertNoServerLeft(said: String) {
        val pids = Regex("""head-0 pid (\d+)""").findAll(said).map { it.groupValues[1].toLong() }.toList()
        assertTrue(pids.isNotEmpty(), said)
        for (pid in pids) {
            assertFalse(ProcessHandle.of(pid).map { it.isAlive }.orElse(false), "server $pid outlived the run: $said")
        }
    }

    @Test
    fun `the estimate first, then a line for the row and the JSON with its steps, and no server left`(
        @TempDir dir: File,
    ) {
        val out = File(dir, "earlier-capacity.json")
        val result = runProcess(command(out), mergeErr = true, timeout = 2.minutes)
        val said = result.stdout
        assertTrue(result.exitCode in 0..1, result.toString())
        val estimate = said.indexOf("capacity: 1 configuration × tomcat, p99 ≤ 250 ms")
        assertTrue(estimate >= 0 && estimate < said.indexOf("live: 1 server answers"), said)
        assertTrue(said.contains("- BlockingIo direct, tomcat: "), said)
        val root = JsonMapper.builder().build().readTree(out)
        assertEquals("p99:250ms", root["objective"].asString())
        val row = root["rows"].single()
        assertEquals("tomcat", row["side"].asString())
        assertTrue(row["steps"].size() >= 5, row.toString())
        assertTrue(row["steps"].all { it["verdict"].asString() in setOf("MET", "MISSED", "CLIENT") }, row.toString())
        assertTrue(root["ratios"].isEmpty, "one side has no ratio: $root")
        assertTrue(said.contains("no earlier run of this jar and command in "), said)
        assertTrue(root["machineNoise"].asDouble() > 0, root.toString())
        assertNoServerLeft(said)
        rerun(dir, out, row["capacity"])
    }

    /**
     * A second run of the same command beside the first, whose capacity is made 1.5 × what it found: the row is
     * compared with it, more than 10 % apart, so unstable across sittings.
     */
    private fun rerun(dir: File, first: File, capacity: tools.jackson.databind.JsonNode) {
        assertTrue(capacity.isNumber, "the known capacity held none: $capacity")
        val mapper = JsonMapper.builder().build()
        val root = mapper.readTree(first) as tools.jackson.databind.node.ObjectNode
        (root["rows"].single() as tools.jackson.databind.node.ObjectNode).put("capacity", 1.5 * capacity.asDouble())
        File(dir, "earlier-capacity.json").writeText(mapper.writeValueAsString(root))
        val out = File(dir, "later-capacity.json")
        val result = runProcess(command(out), mergeErr = true, timeout = 2.minutes)
        val said = result.stdout
        assertTrue(
            said.contains("each row is compared with the last run of this jar and command, earlier-capacity"),
            said,
        )
        val row = mapper.readTree(out)["rows"].single()
        assertTrue(row["capacity"].isNumber, row.toString())
        assertFalse(row["stable"].asBoolean(), row.toString())
        assertTrue(row["label"].asString().contains("unstable across sittings: "), row.toString())
        assertTrue(row["previous"]["apart"].asDouble() > 0.10, row.toString())
    }

    @Test
    fun `Ctrl-C keeps every step measured, and leaves no server`(@TempDir dir: File) {
        val out = File(dir, "run-capacity.json")
        val log = File(dir, "log")
        val process = ProcessBuilder(listOf("setsid") + command(out)).redirectErrorStream(true).redirectOutput(log)
            .start()
        try {
            val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2)
            while (!log.readText().contains("step 4:") && process.isAlive) {
                assertTrue(System.nanoTime() < deadline, "no 4th step within 2 min: ${log.readText()}")
                Thread.sleep(100)
            }
            ProcessBuilder("kill", "-INT", "--", "-${process.pid()}").start().waitFor()
            assertTrue(process.waitFor(1, TimeUnit.MINUTES), "still running 1 min after Ctrl-C: ${log.readText()}")
        } finally {
            if (process.isAlive) ProcessBuilder("kill", "-KILL", "--", "-${process.pid()}").start().waitFor()
        }
        val said = log.readText()
        assertTrue(said.contains("capacity: interrupted: stopping after the running step"), said)
        val row = JsonMapper.builder().build().readTree(out)["rows"].single()
        assertTrue(row["steps"].size() >= 4, row.toString())
        assertTrue(row["label"].asString().startsWith("interrupted after"), row.toString())
        assertNoServerLeft(said)
    }
}
