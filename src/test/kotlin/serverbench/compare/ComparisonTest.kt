package serverbench.compare

import org.junit.jupiter.api.Test
import serverbench.compare.ForkOrder.Side
import serverbench.report.Metric
import serverbench.report.Run
import tools.jackson.databind.json.JsonMapper
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

class ComparisonTest {
    private fun run(limit: String, score: Double, p99: Double, server: String = "netty") = Run(
        "serverbench.benchmarks.CpuBenchmark.direct",
        linkedMapOf("server" to server, "limit" to limit, "concurrency" to "64"),
        Metric(score, 1.0, "ops/s"),
        mapOf("latency.p99" to Metric(p99, Double.NaN, "ms"), "server.cpuPerReq" to Metric(100.0, Double.NaN, "us")),
        iterations = 5,
    )

    /** Base at limit 10000, head at 10500: head 7 % slower with a 1 % spread, p99 the same on both sides. */
    private val forks = forks(0.01)

    private fun forks(spread: Double) = ForkOrder.of(5).let { order ->
        // The k-th fork of each side wobbles by (k - 2) %: both sides' wobbles average out to exactly 1.
        val seen = HashMap<Side, Int>()
        order.map { side -> side to (seen.merge(side, 1) { a, b -> a + b }!! - 1) }
    }.map { (side, k) ->
        val wobble = 1 + spread * (k - 2)
        if (side == Side.BASE) {
            side to listOf(run("10000", 8000 * wobble, 10.0 * wobble), run("10000", 4000.0 * wobble, 20.0, "tomcat"))
        } else {
            side to listOf(run("10500", 7440 * wobble, 10.0 / wobble), run("10500", 4000.0 / wobble, 20.0, "tomcat"))
        }
    }

    @Test
    fun `rows pair the sides by benchmark and parameters, leaving out the parameters the sides set`() {
        val rows = Comparison.of(forks, setOf("limit")).rows
        assertEquals(6, rows.size, rows.joinToString { "${it.params} ${it.metric}" })
        val netty = rows.single { it.params["server"] == "netty" && it.metric == Comparison.Metric.THROUGHPUT }
        assertEquals(mapOf("server" to "netty", "concurrency" to "64"), netty.params)
        assertEquals(5, netty.base.size)
        assertEquals(5, netty.head.size)
        assertEquals(0.93, netty.ratio, 1e-9)
        assertTrue(netty.significant)
        assertEquals("slower", netty.verdict)
        val p99 = rows.single { it.params["server"] == "netty" && it.metric == Comparison.Metric.P99 }
        assertFalse(p99.significant, "p ${p99.p} interval ${p99.interval}")
        assertEquals("~", p99.verdict)
        // Without leaving the side's parameter out, nothing pairs.
        assertTrue(Comparison.of(forks, emptySet()).rows.isEmpty())
    }

    @Test
    fun `the JSON holds every row with the fields tools read`() {
        val comparison = Comparison.of(forks, setOf("limit"))
        val rows = JsonMapper.builder().build().readTree(ComparisonOutput.json(comparison))
        assertEquals(6, rows.size())
        val first = rows[0]
        val fields =
            listOf("benchmark", "params", "metric", "base", "head", "ratio", "ciLow", "ciHigh", "p", "significant")
        for (field in fields) {
            assertTrue(first.has(field), "$field missing from $first")
        }
        assertEquals("serverbench.benchmarks.CpuBenchmark.direct", first["benchmark"].asString())
        assertEquals("netty", first["params"]["server"].asString())
        assertEquals("score", first["metric"].asString())
        assertTrue(first["significant"].asBoolean())
        assertTrue(first["ciHigh"].asDouble() < 1.0)
    }

    @Test
    fun `the markdown marks only the significant rows and says what the figures rest on`() {
        val md = ComparisonOutput.markdown(Comparison.of(forks, setOf("limit")), "a", "b", "5 forks a side")
        val lines = md.lines().filter { it.startsWith("| CpuBenchmark") }
        assertEquals(6, lines.size, md)
        assertTrue(lines.single { "server=netty" in it && "req/s" in it }.endsWith("**slower** |"), md)
        assertEquals(1, lines.count { "**" in it }, md)
        assertTrue(lines.all { "5 + 5 × 5" in it }, md)
        assertTrue("every row: concurrency=64" in md, md)
    }

    @Test
    fun `the markdown says how many forks would have shown a 5 percent change in req-s, where this run could not`() {
        assertFalse(ComparisonOutput.markdown(Comparison.of(forks, setOf("limit")), "b", "h", "f").contains("--forks"))
        val wide = Comparison.of(forks(0.05), setOf("limit"))
        val row = wide.rows.filter { it.metric == Comparison.Metric.THROUGHPUT }.maxBy { it.minimumDetectable }
        assertTrue(row.minimumDetectable > 0.05, "${row.minimumDetectable}")
        val needed = kotlin.math.ceil(5 * (row.minimumDetectable / 0.05).let { it * it }).toInt()
        val markdown = ComparisonOutput.markdown(wide, "b", "h", "f")
        assertTrue(
            markdown.contains("could not have shown a 5.0 % change") && markdown.contains("--forks $needed "),
            markdown,
        )
    }
}
