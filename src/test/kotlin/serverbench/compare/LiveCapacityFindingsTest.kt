package serverbench.compare

import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** LiveCapacityMain's answers to bad input: one line and exit 2, before any server starts. */
class LiveCapacityFindingsTest {
    private fun run(vararg args: String): Pair<Int, String> {
        val err = ByteArrayOutputStream()
        val code = LiveCapacityFindings(PrintStream(ByteArrayOutputStream()), PrintStream(err, true)).run(args.toList())
        return code to err.toString()
    }

    private fun assertOneLine(expected: String, vararg args: String) {
        val (code, said) = run(*args)
        assertEquals(2, code, said)
        assertEquals(1, said.trim().lines().size, said)
        assertTrue(said.startsWith("capacity: $expected"), said)
    }

    @Test
    fun `no sides, three sides, no output, no objective, each one line and exit 2`() {
        assertOneLine("--sides name=a,b is missing", "--out", "x.json", "CpuBenchmark.direct$")
        assertOneLine(
            "--sides server=tomcat,netty,jetty: one parameter and one or two values",
            "--sides",
            "server=tomcat,netty,jetty",
            "--out",
            "x.json",
            "CpuBenchmark.direct$",
        )
        assertOneLine("--out file is missing", "--sides", "server=tomcat", "CpuBenchmark.direct$")
        assertOneLine(
            "a capacity needs one objective (-p objective=p99:100ms), was none",
            "--sides",
            "server=tomcat",
            "--out",
            "x.json",
            "CpuBenchmark.direct$",
        )
    }

    @Test
    fun `a -p of the sides' parameter narrows the sides, and two objectives are refused`() {
        assertOneLine(
            "a capacity needs one objective (-p objective=p99:100ms), was p99:50ms, p99:100ms",
            "--sides", "server=tomcat,netty", "--out", "x.json", "CpuBenchmark.direct$", "-p", "server=tomcat",
            "-p", "objective=p99:50ms,p99:100ms",
        )
    }
}
