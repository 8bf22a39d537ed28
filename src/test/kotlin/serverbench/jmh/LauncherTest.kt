package serverbench.jmh

import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import kotlin.test.assertEquals

/** Bad input is refused by the launcher in one line, exit status 2, before anything is planned, run or written. */
class LauncherTest {
    private fun launch(vararg args: String): Pair<Int, String> {
        val err = ByteArrayOutputStream()
        val saved = System.err
        System.setErr(PrintStream(err, true, Charsets.UTF_8))
        try {
            return Launcher.run(arrayOf(*args)) to err.toString(Charsets.UTF_8).trim()
        } finally {
            System.setErr(saved)
        }
    }

    private val why = "the score is successful requests/s (throughput); latency is in latency.* (every request, HdrHistogram)"

    @Test
    fun `every benchmark mode but throughput is refused, naming the option and what is allowed`() {
        // The pattern matches nothing: the mode must be refused first, before the benchmarks are even listed.
        for (mode in listOf("avgt", "sample", "ss", "all")) {
            assertEquals(2 to "serverbench: -bm $mode is not supported: $why; only -bm thrpt",
                launch("NoSuchBenchmarkAnywhere", "-bm", mode))
        }
        assertEquals(2 to "serverbench: -bm avgt is not supported: $why; only -bm thrpt",
            launch("NoSuchBenchmarkAnywhere", "-bm", "thrpt,avgt"))
        // A real benchmark with a refused mode: exit 2 at once, nothing runs.
        assertEquals(2, launch("NoopBenchmark", "-bm", "avgt", "-p", "server=netty").first)
    }

    @Test
    fun `throughput, JMH's own mode for these benchmarks, is accepted`() {
        val (status, err) = launch("NoSuchBenchmarkAnywhere", "-bm", "thrpt")
        assertEquals(2, status)
        assertEquals(true, err.startsWith("No benchmark matches"), err)
    }
}
