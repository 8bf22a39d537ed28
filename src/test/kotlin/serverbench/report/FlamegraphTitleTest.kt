package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.profile.ProfileLayout
import serverbench.testing.row
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** A flamegraph's heading says what it shows: benchmark, server, parameters, event. */
class FlamegraphTitleTest {
    private val benchmark = "serverbench.benchmarks.CpuBenchmark.direct"
    private val params = linkedMapOf(
        "concurrency" to "64",
        "cpus" to "unlimited",
        "cpuset" to "none",
        "limit" to "10000",
        "server" to "netty",
    )

    @Test
    fun `benchmark, server first, the other parameters, the event, and the budget only when there is one`() {
        assertEquals(
            "CpuBenchmark.direct · server=netty · concurrency=64, limit=10000 · cpu",
            ProfileLayout.title(benchmark, params, "cpu"),
        )
        val budgeted = params + mapOf("cpus" to "1", "server" to "tomcat")
        assertEquals(
            "CpuBenchmark.direct · server=tomcat · concurrency=64, cpus=1, limit=10000 · wall · base → head",
            ProfileLayout.title(benchmark, budgeted, "wall", "base → head"),
        )
        assertEquals(
            "NoopBenchmark.hello · cpu",
            ProfileLayout.title("serverbench.benchmarks.NoopBenchmark.hello", emptyMap(), "cpu"),
        )
    }

    @Test
    fun `as async-profiler's title option it is HTML without a comma, which would end the option`() {
        val html = ProfileLayout.htmlTitle(ProfileLayout.title(benchmark, params, "cpu", "a<b & c"))
        assertEquals(
            "CpuBenchmark.direct &#183; server=netty &#183; concurrency=64&#44; limit=10000 &#183; " +
                "cpu &#183; a&lt;b &amp; c",
            html,
        )
        assertFalse(html.contains(','))
        assertEquals("&#128293;", ProfileLayout.htmlTitle("\uD83D\uDD25"), "one reference per code point")
    }

    @Test
    fun `a differential flamegraph is titled with its run and base to head`(@TempDir dir: File) {
        val headParams = mapOf("concurrency" to "64", "limit" to "10000", "server" to "netty")
        fun run(side: String, n: Int): BenchmarkResult {
            val out = ProfileLayout.dir(File(dir, side), benchmark, headParams).apply { mkdirs() }
            val collapsed = File(out, "cpu.collapsed")
                .apply { writeText("Thread.run;Handler.direct;PrimesKt.isPrime $n\n") }
            return row(benchmark, headParams, 1.0, 0.1, profiles = listOf(collapsed))
        }
        // printedBy: the converter's progress line stays off the test output.
        val diffs = printedBy { Flamegraphs.diff(run("base", 30), run("head", 40), File(dir, "diff"), dir) }.value
        val diff = diffs.single()
        val html = File(dir, diff).readText()
        val h1 = Regex("<h1>(.*)</h1>").find(html)?.groupValues?.get(1)
        assertEquals(
            "CpuBenchmark.direct &#183; server=netty &#183; concurrency=64&#44; limit=10000 &#183; " +
                "cpu &#183; base &#8594; head",
            h1,
        )
        assertTrue(html.contains("PrimesKt.isPrime"))
    }
}
