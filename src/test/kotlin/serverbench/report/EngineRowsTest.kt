package serverbench.report

import org.junit.jupiter.api.Test
import serverbench.testing.metric
import serverbench.testing.remoteFlag
import serverbench.testing.row
import serverbench.testing.withSecondary
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * Rows another load engine measured (`engine=hyperfoil`, from scripts/hyperfoil) beside the harness's row of the same
 * workload: one table, the engine named in a column and in the findings, which compare them as candidates of one group.
 */
class EngineRowsTest {
    private fun noop(score: Double, engine: String?) = row(
        "NoopBenchmark.hello",
        mapOf("server" to "netty", "concurrency" to "8") + listOfNotNull(engine?.let { BenchmarkResult.ENGINE to it }),
        score,
        100.0,
        mapOf("latency.p99" to metric(3.0, "ms")),
    )

    @Test
    fun `the harness's row and Hyperfoil's sit side by side, engine named`() {
        val markdown = Report.markdown(listOf(noop(3000.0, "hyperfoil"), noop(3500.0, null)), "both.json", null, null)
        val rows = markdown.lines().filter { it.startsWith("| ") }
        assertTrue(rows[0].startsWith("| variant | server | engine | req/s |"), rows[0])
        assertTrue(rows[2].startsWith("| hello | netty | serverbench | 3,500 ± 100.0 |"), rows[2])
        assertTrue(rows[3].startsWith("| hello | netty | hyperfoil | 3,000 ± 100.0 |"), rows[3])
        assertTrue(
            markdown.contains("- **Noop**: most req/s **netty hello**: 3,500 vs 3,000 (netty hello on hyperfoil)"),
            markdown,
        )
        assertTrue(markdown.contains("`hyperfoil` (`scripts/hyperfoil`"), markdown)
        assertTrue(
            markdown.contains("the harness's in the server's JVM, Hyperfoil's in a JVM of its own"),
            "no 'same JVM' for Hyperfoil's client",
        )
    }

    @Test
    fun `the findings say where each engine's client ran, a harness row against a target too`() {
        val target = noop(3500.0, null).withSecondary(remoteFlag())
        val markdown = Report.markdown(listOf(target, noop(3000.0, "hyperfoil")), "both.json", null, null)
        assertTrue(
            markdown.contains(
                "the load client: the harness's in a JVM of its own (-Dserverbench.target), Hyperfoil's in a JVM " +
                    "of its own",
            ),
            markdown,
        )
    }

    @Test
    fun `a report of harness rows alone has no engine column`() {
        val markdown = Report.markdown(listOf(noop(3500.0, null)), "x.json", null, null)
        assertFalse(markdown.contains("engine"), markdown)
    }
}
