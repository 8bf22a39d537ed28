package serverbench.hyperfoil

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.testing.runProcess
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.minutes

/**
 * Every exported file is read by Hyperfoil's own parser (0.25.2), in a JVM with Hyperfoil's own classpath
 * (target/classes for the runner, target/hyperfoil/lib as `mvn package` copies it, before the tests): Noop, Delay,
 * each Cpu variant, a BlockingIo variant, closed and open loop. What the parser understood (users, rate, sessions,
 * connections, phases, SLAs) must be what the export meant.
 */
class HyperfoilYamlParseTest {
    private val sizing = HyperfoilYaml.Sizing(warmupSeconds = 30, iterations = 5, iterationSeconds = 5)

    private fun workloads(regex: String, vararg params: String): List<Workload> =
        HyperfoilCommand.plan(HyperfoilOptions.parse(listOf(regex) + params.flatMap { listOf("-p", it) }))

    /** Runs Hyperfoil's parser on [files]; its exit status and one line per file. */
    private fun parse(files: List<File>): Pair<Int, List<String>> {
        val lib = File("target/hyperfoil/lib")
        assertTrue(File(lib, "hyperfoil-core-0.25.2.jar").isFile, "$lib is copied by mvn's process-test-classes")
        val classpath = listOf("target/classes", "${lib.path}/*").joinToString(File.pathSeparator)
        val java = File(System.getProperty("java.home"), "bin/java").path
        val log = File.createTempFile("hyperfoil-parse", ".log").apply { deleteOnExit() }
        val run = runProcess(
            listOf(java, "-Dserverbench.hyperfoil.log=${log.path}", "-cp", classpath) +
                listOf("serverbench.hyperfoil.runner.HyperfoilRunner", "parse") + files.map { it.path },
            timeout = 2.minutes,
        )
        return run.exitCode to run.stdout.reader().readLines()
    }

    private fun write(dir: File, workloads: List<Workload>): List<File> = workloads.map { w ->
        File(dir, "${w.fileName}.hf.yaml").apply { writeText(HyperfoilYaml.write(w, "127.0.0.1:8080", sizing)) }
    }

    @Test
    fun `Hyperfoil's parser reads every exported file as the export meant it`(@TempDir dir: File) {
        val closed = workloads("NoopBenchmark", "server=netty,tomcat") +
            workloads("DelayBenchmark", "server=netty", "concurrency=8") +
            workloads("CpuBenchmark", "server=netty", "limit=1000") +
            workloads("BlockingIoBenchmark.direct$", "server=tomcat", "delayMs=100", "concurrency=200")
        val open = workloads("NoopBenchmark", "server=netty", "rate=2000") +
            workloads("DelayBenchmark", "server=tomcat", "concurrency=16", "rate=60")
        assertEquals(5, closed.count { it.run.className.endsWith("CpuBenchmark") }, "each Cpu variant")
        val files = write(dir, closed + open)
        val (status, lines) = parse(files)
        assertEquals(0, status, lines.joinToString("\n"))
        assertEquals(files.size, lines.size, lines.joinToString("\n"))
        val slas = "slas=errorRatio 0.0 invalidRatio 0.0"
        for ((w, line) in (closed + open).zip(lines)) {
            assertTrue(line.startsWith("ok "), line)
            val load = if (w.openLoop) {
                "constantRate ${w.rate.toDouble()}/s maxSessions=${w.concurrency} variance=false " +
                    "sessionLimitPolicy=CONTINUE"
            } else {
                "always users=${w.concurrency}"
            }
            assertTrue(
                line.endsWith(
                    "threads=1 agents=0 http=127.0.0.1:8080 connections=${w.concurrency} timeout=30000 " +
                        "phases=warmup[$load 30000 ms warmup],measure[$load 25000 ms after warmup] $slas",
                ),
                line,
            )
        }
        val delay = File(dir, "${closed.first { it.run.className.endsWith("DelayBenchmark") }.fileName}.hf.yaml")
        assertTrue(delay.readText().contains("GET: \"/noop/delay?ms=100\""), delay.readText())
    }

    @Test
    fun `a file Hyperfoil cannot read fails the check, and agents are what it parses`(@TempDir dir: File) {
        val w = workloads("NoopBenchmark", "server=netty").single()
        val agents = File(dir, "agents.hf.yaml").apply {
            writeText(
                HyperfoilYaml.write(w, "10.0.0.5:8080", sizing, mapOf("a1" to "10.0.0.7", "a2" to "u@10.0.0.8:22")),
            )
        }
        val broken = File(dir, "broken.hf.yaml").apply {
            writeText(HyperfoilYaml.write(w, "127.0.0.1:8080", sizing).replace("range: 2xx", "range: 2xz"))
        }
        val (status, lines) = parse(listOf(agents, broken))
        assertEquals(1, status, lines.joinToString("\n"))
        assertTrue(lines[0].startsWith("ok ") && lines[0].contains("agents=2 http=10.0.0.5:8080"), lines[0])
        assertTrue(lines[1].startsWith("error ") && lines[1].contains("2xz"), lines[1])
    }
}
