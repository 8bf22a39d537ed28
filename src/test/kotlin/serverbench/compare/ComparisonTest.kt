package serverbench.compare

import org.junit.jupiter.api.Test
import serverbench.compare.ForkOrder.Side
import serverbench.metrics.MetricCatalogue
import serverbench.report.BenchmarkResult
import serverbench.report.Metric
import serverbench.testing.clientThreads
import serverbench.testing.metric
import serverbench.testing.row
import serverbench.testing.withSecondary
import tools.jackson.databind.json.JsonMapper
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNotNull
import kotlin.test.assertTrue

class ComparisonTest {
    private fun run(
        limit: String,
        score: Double,
        p99: Double,
        server: String = "netty",
        cpu: Metric = metric(100.0, "us"),
    ) = row(
        "CpuBenchmark.direct",
        linkedMapOf("server" to server, "limit" to limit, "concurrency" to "64"),
        score,
        secondary = mapOf("latency.p99" to metric(p99, "ms"), "server.cpuPerReq" to cpu),
        iterations = 5,
    )

    /** Base at limit 10000, head at 10500: head 7 % slower with a 1 % spread, p99 the same on both sides. */
    private val forks = forks(0.01)

    private fun forks(spread: Double, count: Int = 6) = ForkOrder.of(count).let { order ->
        // The k-th fork of each side wobbles by (k - 2.5) spreads: both sides' wobbles average out to exactly 1.
        val seen = HashMap<Side, Int>()
        order.map { side -> side to (seen.merge(side, 1) { a, b -> a + b }!! - 1) }
    }.map { (side, k) ->
        val wobble = 1 + spread * (k - (count - 1) / 2.0)
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
        val netty = rows.single { it.params["server"] == "netty" && it.metric == MetricCatalogue.THROUGHPUT }
        assertEquals(mapOf("server" to "netty", "concurrency" to "64"), netty.params)
        assertEquals(6, netty.base.size)
        assertEquals(6, netty.head.size)
        assertEquals(0.93, netty.ratio, 1e-9)
        assertTrue(netty.significant)
        assertEquals("slower", netty.verdict)
        val p99 = rows.single { it.params["server"] == "netty" && it.metric == MetricCatalogue.P99 }
        assertFalse(p99.significant, "p ${p99.p} interval ${p99.interval}")
        assertEquals("~", p99.verdict)
        // Without leaving the side's parameter out, nothing pairs.
        assertTrue(Comparison.of(forks, emptySet()).rows.isEmpty())
    }

    @Test
    fun `a side that ran several values of a side's parameter is not pooled into one row`() {
        // Base sets limit=10000; head leaves it to the benchmark's defaults, two of them here.
        val mixed = forks.map { (side, runs) ->
            if (side == Side.BASE) side to runs else side to runs + run("11000", 7000.0, 11.0)
        }
        val comparison = Comparison.of(mixed, setOf("limit"))
        assertTrue(
            comparison.rows.none {
                it.params["server"] == "netty"
            },
            comparison.rows.joinToString { "${it.params}" },
        )
        assertEquals(3, comparison.rows.count { it.params["server"] == "tomcat" })
        assertTrue(comparison.rows.all { it.head.size == 6 })
        assertEquals(
            listOf(
                "CpuBenchmark.direct (server=netty, concurrency=64): not compared, as head ran limit=10500 and " +
                    "limit=11000 (they would pool into one row): give each side one value of limit",
            ),
            comparison.notCompared,
        )
        val md = ComparisonOutput.markdown(comparison, "b", "h", "f")
        assertTrue(md.contains("Not compared:\n- CpuBenchmark.direct (server=netty"), md)
    }

    @Test
    fun `sides whose rows ran on other numbers of client threads get one warning line, unless the sides set it`() {
        // clientThreads=auto is left out of the key: 1 thread on a 2-core base machine, 4 on a 16-core head one.
        fun threads(run: BenchmarkResult, n: Int) = run.withSecondary(clientThreads(n))
        val differing = forks.map { (side, runs) -> side to runs.map { threads(it, if (side == Side.BASE) 1 else 4) } }
        fun warnings(forks: List<Pair<Side, List<BenchmarkResult>>>, sideParams: Set<String> = setOf("limit")) =
            ComparisonOutput.markdown(Comparison.of(forks, sideParams), "b", "h", "f").lines()
                .filter { it.startsWith("Warning:") }
        assertEquals(
            listOf(
                "Warning: 2 rows ran on other numbers of client threads (base against head, `client.threads`): " +
                    "CpuBenchmark.direct (server=netty, concurrency=64) 1 against 4; CpuBenchmark.direct " +
                    "(server=tomcat, concurrency=64) 1 against 4. Each is a different load, so its change is not " +
                    "the code's alone; `-p clientThreads=auto` counts this machine's processors: give both sides one " +
                    "count (`-p clientThreads=N`).",
            ),
            warnings(differing),
        )
        // The same count on both sides, or a count only one side's results hold (an older jar): nothing to say.
        assertEquals(emptyList(), warnings(forks.map { (side, runs) -> side to runs.map { threads(it, 1) } }))
        val older = forks.map { (side, runs) -> side to if (side == Side.BASE) runs else runs.map { threads(it, 4) } }
        assertEquals(emptyList(), warnings(older))
        // -p clientThreads=1 against =4 as the sides' parameter: the comparison asks exactly that.
        val asked = differing.map { (side, runs) ->
            side to runs.map { it.copy(params = it.params + ("clientThreads" to if (side == Side.BASE) "1" else "4")) }
        }
        assertEquals(emptyList(), warnings(asked, setOf("limit", "clientThreads")))
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
    fun `figures under 100 keep three significant digits, so 20 microseconds of CPU does not read 0_02 ms`() {
        val cpu = Metric(0.0204, Double.NaN, "ms")
        val same = ForkOrder.of(4).map { side -> side to listOf(run("10000", 8000.0, 3.3, cpu = cpu)) }
        val md = ComparisonOutput.markdown(Comparison.of(same, emptySet()), "b", "h", "f")
        assertTrue("| 0.0204 ms | 0.0204 ms |" in md.lines().single { "server CPU/req" in it }, md)
        assertTrue("| 3.3 ms | 3.3 ms |" in md.lines().single { "| p99 |" in it }, md)
    }

    @Test
    fun `the markdown marks only the significant rows and says what the figures rest on`() {
        val md = ComparisonOutput.markdown(Comparison.of(forks, setOf("limit")), "a", "b", "6 forks a side")
        val lines = md.lines().filter { it.startsWith("| CpuBenchmark") }
        assertEquals(6, lines.size, md)
        assertTrue(lines.single { "server=netty" in it && "req/s" in it }.endsWith("**slower** |"), md)
        assertEquals(1, lines.count { "**" in it }, md)
        assertTrue(lines.all { "6 + 6 × 5" in it }, md)
        assertTrue("every row: concurrency=64" in md, md)
    }

    @Test
    fun `the markdown says how many forks would have shown a 5 percent change in req-s, only counts compare runs`() {
        assertFalse(ComparisonOutput.markdown(Comparison.of(forks, setOf("limit")), "b", "h", "f").contains("--forks"))
        for (spread in listOf(0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04)) {
            val wide = Comparison.of(forks(spread), setOf("limit"))
            val row = wide.rows.filter { it.metric == MetricCatalogue.THROUGHPUT }.maxBy { it.minimumDetectable }
            val markdown = ComparisonOutput.markdown(wide, "b", "h", "f")
            if (row.minimumDetectable <= 0.05) {
                assertFalse(markdown.contains("--forks"), markdown)
                continue
            }
            assertTrue(markdown.contains("could not have shown a 5.0 % change"), markdown)
            val advised = assertNotNull(Regex("""about --forks (\d+) would""").find(markdown), markdown)
                .groupValues[1].toInt()
            // Even, so the order cancels a drift, and more than the 6 that fell short.
            assertTrue(advised % 2 == 0 && advised > 6, "spread $spread: --forks $advised")
            // The half-width scaled by the exact test's steps reaches 5 % there, and not at the allowed count before.
            val scaled = { n: Int ->
                row.minimumDetectable * ForkStatistics.widthShare(n, n) / ForkStatistics.widthShare(6, 6)
            }
            assertTrue(scaled(advised) <= 0.05 && scaled(advised - 2) > 0.05, "spread $spread: --forks $advised")
        }
        val hopeless = ComparisonOutput.markdown(Comparison.of(forks(0.08), setOf("limit")), "b", "h", "f")
        assertTrue(hopeless.contains("not even --forks 100 would."), hopeless)
    }

    @Test
    fun `labels follow the test that marks - its real level, nothing detectable where nothing can be marked`() {
        val six = ComparisonOutput.markdown(Comparison.of(forks, setOf("limit")), "b", "h", "f")
        assertTrue(six.contains("marked by chance with probability 4.11 % (6 + 6 forks)"), six)
        assertFalse(six.contains("1 row in 20"), six)
        // Forks lost to failures: 3 a side can never be marked, so the row says so instead of a detectable change.
        val all = forks(0.01)
        val three = Comparison.of(
            all.filter { it.first == Side.BASE }.take(3) + all.filter { it.first == Side.HEAD }.take(3),
            setOf("limit"),
        )
        val md = ComparisonOutput.markdown(three, "b", "h", "f")
        assertTrue(md.contains("probability 0 (3 + 3 forks)"), md)
        val lines = md.lines().filter { it.startsWith("| CpuBenchmark") }
        assertTrue(lines.isNotEmpty() && lines.all { it.endsWith("| – | ~ |") }, md)
        assertFalse(md.contains("--forks"), md)
        val json = JsonMapper.builder().build().readTree(ComparisonOutput.json(three))
        assertEquals(0.0, json[0]["alpha"].asDouble())
        assertTrue(json[0]["minDetectable"].isNull, "${json[0]}")
    }
}
