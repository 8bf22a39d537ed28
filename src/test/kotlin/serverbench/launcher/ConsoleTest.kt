package serverbench.launcher

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.testing.planRun
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertSame
import kotlin.test.assertTrue

class ConsoleTest {
    private fun run(method: String, vararg params: Pair<String, String>) =
        planRun(method, *params, estimateSeconds = 30)

    private val runs = listOf(
        run(
            "CpuBenchmark.direct",
            "concurrency" to "64",
            "limit" to "10000",
            "rate" to "0",
            "server" to "netty",
            "cpus" to "unlimited",
        ),
        run(
            "CpuBenchmark.direct",
            "concurrency" to "64",
            "limit" to "10000",
            "rate" to "0",
            "server" to "tomcat",
            "cpus" to "unlimited",
        ),
        run(
            "BlockingIoBenchmark.direct",
            "concurrency" to "64",
            "delayMs" to "100",
            "rate" to "0",
            "server" to "netty",
            "cpus" to "unlimited",
        ),
    )

    @Test
    fun `a run line names only what differs between the session's runs, the rest is said once`() {
        assertEquals(setOf("limit", "server", "delayMs"), RunLine.varying(runs))
        assertEquals("every run: concurrency=64, rate=0 (closed loop)", RunLine.common(runs))
        assertEquals(
            "[1/3, ETA 00:01:30] CpuBenchmark.direct (limit=10000, server=netty):",
            RunLine.name(0, runs, "00:01:30"),
        )
        assertEquals(
            "[3/3, ETA 00:00:30] BlockingIoBenchmark.direct (delayMs=100, server=netty):",
            RunLine.name(2, runs, "00:00:30"),
        )
        val open = listOf(run("NoopBenchmark.hello", "rate" to "500", "server" to "netty"))
        assertEquals("every run: rate=500 (open loop at 500 req/s)", RunLine.common(open))
        assertNull(RunLine.common(listOf(run("NoopBenchmark.hello", "server" to "netty"))))
    }

    @Test
    fun `compact mode sends everything printed to the log and keeps one line per run on the screen`(
        @TempDir dir: File,
    ) {
        val screen = ByteArrayOutputStream()
        val savedOut = System.out
        val savedErr = System.err
        val out = PrintStream(screen, true, Charsets.UTF_8)
        System.setOut(out)
        System.setErr(out)
        val log = File(dir, "sub/quick.log")
        try {
            Console.open(log.path).use { console ->
                console.info("serverbench: 2 runs planned")
                console.started("[1/2] NoopBenchmark.hello (server=netty):")
                // What a fork prints reaches this JVM's System.out: the log's, not the screen's.
                System.out.println("# Warmup Iteration   1: 42 ops/s")
                System.err.println("a fork's stack trace")
                console.finished("43,000 ± 400 req/s")
                console.started("[2/2] NoopBenchmark.hello (server=tomcat):")
                console.error("serverbench: benchmark failed: why")
            }
            assertSame(out, System.out)
            assertSame(out, System.err)
        } finally {
            System.setOut(savedOut)
            System.setErr(savedErr)
        }
        assertEquals(
            listOf(
                "serverbench: 2 runs planned",
                "[1/2] NoopBenchmark.hello (server=netty): 43,000 ± 400 req/s",
                "[2/2] NoopBenchmark.hello (server=tomcat):",
                "serverbench: benchmark failed: why",
            ),
            screen.toString(Charsets.UTF_8).lines().filter { it.isNotEmpty() },
        )
        val logged = log.readText()
        for (line in listOf(
            "# Warmup Iteration",
            "a fork's stack trace",
            "43,000 ± 400 req/s",
            "benchmark failed: why",
        )) {
            assertTrue(line in logged, "log lacks '$line':\n$logged")
        }
    }

    @Test
    fun `without a log file the console is JMH's usual one on the screen`() {
        Console.open(null).use { console ->
            assertSame(System.out, console.jmh)
            assertEquals(false, console.compact)
        }
    }
}
