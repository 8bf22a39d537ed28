package serverbench.hyperfoil

import org.junit.jupiter.api.Test
import serverbench.Full
import serverbench.benchmarks.Jar
import serverbench.report.Results
import serverbench.testing.runProcess
import java.io.File
import java.net.InetSocketAddress
import java.net.Socket
import java.util.zip.ZipFile
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.minutes

/**
 * scripts/hyperfoil as a user runs it, briefly (a 3 s warmup, 3 x 1 s): Hyperfoil in a JVM of its own drives a
 * scripts/serve it started, the row lands in the results with engine=hyperfoil; a failing server fails the run in one
 * line, and nothing is left running (no serve process, its port closed). And benchmarks.jar carries none of Hyperfoil
 * nor its Netty 4.1, which would clash with the jar's Netty 4.2.
 */
@Full
class HyperfoilIT {
    private class Outcome(val exitCode: Int, val stdout: String, val stderr: String, val dir: File?) {
        override fun toString() = "exit $exitCode\n--- stdout\n${stdout.takeLast(3000)}\n--- stderr\n$stderr"
    }

    private fun hyperfoil(vararg args: String): Outcome {
        val run = runProcess(
            listOf("scripts/hyperfoil") + args + listOf("--warmup", "3s", "-i", "3", "-r", "1s"),
            outputTo = Jar.outputFiles("hyperfoil", *args),
            timeout = 3.minutes,
            name = "scripts/hyperfoil ${args.joinToString(" ")}",
        )
        val dir = Regex("""file\(s\) in (\S+)/ """).find(run.stdout)?.groupValues?.get(1)?.let { File(it) }
        return Outcome(run.exitCode, run.stdout, run.stderr, dir)
    }

    @Test
    fun `benchmarks jar holds no Hyperfoil and no Netty 4_1`() {
        ZipFile(Jar.path).use { zip ->
            val names = zip.entries().asSequence().map { it.name }.toList()
            assertTrue(names.none { it.startsWith("io/hyperfoil/") || it.startsWith("io/vertx/") }, "Hyperfoil")
            assertTrue(names.none { it.startsWith("serverbench/hyperfoil/runner/") }, "the runner, which needs it")
            assertTrue(names.any { it.startsWith("serverbench/hyperfoil/HyperfoilMain") }, "the host side is there")
            val versions = zip.getInputStream(zip.getEntry("META-INF/io.netty.versions.properties")).reader().readText()
            assertFalse(Regex("""Version=4\.1\.""").containsMatchIn(versions), "Netty 4.1 in benchmarks.jar")
        }
        val lib = File(Jar.path.parentFile, "hyperfoil/lib")
        assertTrue(File(lib, "netty-common-4.1.87.Final.jar").isFile, "Hyperfoil's own Netty is beside it, in $lib")
    }

    @Test
    fun `a run lands in the results beside the harness's rows, engine hyperfoil`() {
        val run = hyperfoil("NoopBenchmark", "-p", "server=netty", "-p", "concurrency=8")
        assertEquals(0, run.exitCode, run.toString())
        val results = File("${run.dir}.json")
        val row = Results.read(results).single()
        assertEquals("hyperfoil", row.engine)
        assertTrue(row.primary.score > 0, row.toString())
        assertTrue(File("${run.dir}.md").readText().contains("| hello | netty | hyperfoil |"), run.toString())
        assertTrue(File("${run.dir}.log").readText().contains("HttpClientPoolImpl"), "Hyperfoil's log in its file")
        assertFalse(run.stdout.contains("HttpClientPoolImpl"), "and not on the screen")
    }

    @Test
    fun `a failing server fails the run in one line and leaves nothing running`() {
        val run = hyperfoil("SelfCheckBenchmark.status500", "-p", "server=netty", "-p", "concurrency=8")
        assertEquals(1, run.exitCode, run.toString())
        val lines = run.stderr.trim().lines()
        assertEquals(1, lines.size, run.toString())
        assertTrue(lines.single().startsWith("hyperfoil: FAILED SelfCheckBenchmark.status500"), run.toString())
        assertTrue(lines.single().contains("answered HTTP 5xx, not 2xx"), run.toString())
        assertFalse(File("${run.dir}.json").exists(), "no result for a failed run")
        val serveLog = run.dir!!.listFiles { f -> f.name.endsWith(".serve.log") }!!.single()
        val port = Regex("""listening on http://127\.0\.0\.1:(\d+)""").find(serveLog.readText())!!.groupValues[1]
        val connected = runCatching {
            Socket().use { it.connect(InetSocketAddress("127.0.0.1", port.toInt()), 1000) }
        }.isSuccess
        assertFalse(connected, "port $port of the serve process is closed")
        val left = ProcessHandle.allProcesses().filter { p ->
            p.info().commandLine().orElse("").let {
                it.contains("serverbench.fixture.Serve") && it.contains("--port 0")
            }
        }.count()
        assertEquals(0, left, "no scripts/serve left running")
    }
}
