package serverbench.launcher

import org.junit.jupiter.api.Test
import org.openjdk.jmh.runner.format.OutputFormatFactory
import org.openjdk.jmh.runner.options.VerboseMode
import serverbench.testing.planRun
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** What the launcher reads from JMH's console output (a fork's failure) and what it keeps off it. */
class SessionOutputTest {
    private val printed = ByteArrayOutputStream()
    private val output = SessionOutput(
        OutputFormatFactory.createFormatInstance(PrintStream(printed, true, Charsets.UTF_8), VerboseMode.NORMAL),
    )

    private fun text() = printed.toString(Charsets.UTF_8)

    @Test
    fun `a fork's failure is the first line after JMH's failure marker, without the exception's class`() {
        output.println("# Run progress: 0.00% complete, ETA 00:01:00")
        output.println("<failure>")
        output.println("")
        output.println("java.lang.IllegalStateException: the netty server failed to start: Address already in use")
        output.println("\tat serverbench.benchmarks.HttpBenchmark.startServerAndClient(HttpBenchmark.kt:160)")
        assertEquals("the netty server failed to start: Address already in use", output.takeFailure())
        assertNull(output.takeFailure(), "taken once")
        output.println("<failure>")
        output.println("serverbench.client.LoadFailure: serverbench: 3 failed requests: 3 timeouts")
        assertEquals("3 failed requests: 3 timeouts", output.takeFailure())
        assertFalse(text().contains("# Run progress"), text())
        assertTrue(text().contains("Address already in use"), "JMH's own lines still reach the log: ${text()}")
    }

    @Test
    fun `a line without an exception class is the reason as it stands`() {
        output.println("<failure>")
        output.println("  serverbench: the server answered 500 ")
        assertEquals("the server answered 500", output.takeFailure())
    }

    @Test
    fun `progress names the run and scales the estimate by how the finished runs compared with theirs`() {
        val runs = List(4) { planRun("NoopBenchmark.hello", estimateSeconds = 60) }
        assertEquals("00:04:00", Progress.eta(0, runs, 0))
        // Two runs done in half their estimate: the two left should take half theirs too.
        assertEquals("00:01:00", Progress.eta(2, runs, 60))
        assertEquals("# Run progress: run 3 of 4 (50.00% complete), ETA 00:01:00", Progress.line(2, runs, 60))
        assertEquals("01:01:01", Progress.duration(3661))
    }
}
