package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.w3c.dom.Element
import serverbench.testing.row
import java.io.File
import javax.imageio.ImageIO
import javax.xml.parsers.DocumentBuilderFactory
import kotlin.math.pow
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** The charts' ticks, computed apart from drawing, and the files JFreeChart writes with them. */
class ChartsTest {
    @Test
    fun `a log axis labels every decade and its 2 and 5 steps, and marks the other steps`() {
        val scale = Ticks.scale(listOf(100.0, 1000.0, 10000.0, 100000.0, 300000.0))
        assertTrue(scale.log)
        // Out to the 1, 2 or 5 just beyond the values, so both ends are labelled.
        assertEquals(50.0 to 500000.0, scale.lower to scale.upper)
        assertEquals(
            listOf(50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000)
                .map { it.toDouble() },
            scale.major,
        )
        assertEquals(
            listOf("50", "100", "200", "500", "1k", "2k", "5k", "10k", "20k", "50k", "100k", "200k", "500k"),
            scale.major.map(Ticks::label),
        )
        assertTrue(scale.minor.containsAll(listOf(300.0, 400.0, 600.0, 900.0, 300000.0)), "${scale.minor}")
        assertTrue(scale.minor.none { it in scale.major })
    }

    @Test
    fun `a log axis within about a decade labels every step, and one over many decades only the decades`() {
        assertEquals(listOf(50, 60, 70, 80, 90, 100).map { it.toDouble() }, Ticks.log(55.0, 95.0).major)
        val wide = Ticks.log(1.0, 1e8)
        assertEquals((0..8).map { 10.0.pow(it) }, wide.major)
        assertTrue(wide.minor.containsAll(listOf(2.0, 5.0, 5e7)))
    }

    @Test
    fun `a linear axis starts at 0 and has at least five labelled steps of 1, 2 or 5`() {
        val scale = Ticks.scale(listOf(21000.0, 56000.0, 60000.0), listOf(20000.0, 62000.0))
        assertFalse(scale.log)
        assertEquals(listOf(0, 10000, 20000, 30000, 40000, 50000, 60000, 70000).map { it.toDouble() }, scale.major)
        assertEquals(listOf("0", "10k", "20k", "30k", "40k", "50k", "60k", "70k"), scale.major.map(Ticks::label))
        assertTrue(scale.minor.containsAll(listOf(2000.0, 54000.0, 68000.0)), "${scale.minor}")
        // Small figures: no float noise in the values or the labels.
        val ms = Ticks.linear(0.0, 1.3)
        assertEquals(listOf("0", "0.2", "0.4", "0.6", "0.8", "1", "1.2", "1.4"), ms.major.map(Ticks::label))
        assertEquals(listOf(0.2, 0.4), ms.major.subList(1, 3))
        assertEquals((0..8).map { it.toDouble() }, Ticks.linear(0.0, 7.0).major, "7 plus room, in steps of 1")
    }

    @Test
    fun `the subtitle names connections, loop, CPU budget, iterations and JDK`() {
        val runs = offload().map { it.copy(params = it.params + ("cpus" to "2")) }
        val lines = Charts.conditions(runs, "limit")
        assertEquals(
            listOf(
                "64 connections, closed loop, server CPU budget cpus=2",
                "5 × 5 s measured iterations in 1 fork, JDK 17.0.15, error bars: 99.9 % interval",
            ),
            lines,
        )
        // The p99 chart's bars are the per-iteration range, with the coverage its 5 iterations give it.
        assertEquals(
            "5 × 5 s measured iterations in 1 fork, JDK 17.0.15, error bars: range of the 5 iterations' p99 (holds " +
                "their median with 93.8 %)",
            Charts.conditions(runs, "limit", "latency.p99").last(),
        )
        val open = offload().map { it.copy(params = it.params + ("rate" to "2000")) }
        assertTrue(Charts.conditions(open, "limit")[0].contains("open loop at 2000 req/s"))
        val swept = Charts.conditions(offload(), "concurrency")
        assertTrue(swept[0].startsWith("closed loop, server without a CPU budget"), "$swept")
    }

    @Test
    fun `the load client's own quota is read from the forks' JVM arguments and named in the subtitle`(
        @TempDir dir: File,
    ) {
        val file = File(dir, "r.json").apply {
            writeText(
                """[{"benchmark": "serverbench.benchmarks.NoopBenchmark.hello", "params": {"concurrency": "64"},
                "jvmArgs": ["-Xmx2g", "-Dserverbench.clientCpus=0.25", "-Dserverbench.warmup=off"],
                "primaryMetric": {"score": 20000, "scoreError": 10, "scoreUnit": "ops/s"}}]""",
            )
        }
        val run = Results.read(file).single()
        assertEquals("0.25", run.clientCpus)
        assertEquals(
            "64 connections, closed loop, server without a CPU budget, load client quota 0.25 cores",
            Charts.conditions(listOf(run), "limit").first(),
        )
        assertTrue(Charts.conditions(offload(), "limit").none { "quota" in it }, "no quota, not said")
    }

    @Test
    fun `the JDK and the measurement plan are read from the result file`(@TempDir dir: File) {
        val file = File(dir, "r.json").apply {
            writeText(
                """[{"benchmark": "serverbench.benchmarks.CpuBenchmark.direct", "jdkVersion": "21.0.4",
                "forks": 2, "measurementIterations": 5, "measurementTime": "10 s", "params": {"limit": "100"},
                "primaryMetric": {"score": 1000, "scoreError": 10, "scoreUnit": "ops/s"}}]""",
            )
        }
        val run = Results.read(file).single()
        assertEquals(
            listOf("21.0.4", "2", "5", "10 s"),
            listOf(run.jdkVersion, "${run.forks}", "${run.iterations}", run.iterationTime),
        )
        assertEquals(
            "5 × 10 s measured iterations in 2 forks, JDK 21.0.4, error bars: 99.9 % interval",
            Charts.conditions(listOf(run), "limit").last(),
        )
    }

    @Test
    fun `write gives an SVG with ticks, subtitle and error bars, and a PNG beside it`(@TempDir dir: File) {
        val charts = Charts.write(offload(), dir, dir)
        assertEquals(listOf("cpu-limit-throughput.svg", "cpu-limit-p99.svg"), charts.getValue("Cpu"))
        for (name in listOf("cpu-limit-throughput", "cpu-limit-p99")) {
            val png = ImageIO.read(File(dir, "$name.png"))
            assertEquals(1920 to 2 * (560 + 14 * 4), png.width to png.height)
        }
        val svg = parse(File(dir, "cpu-limit-throughput.svg"))
        val texts = elements(svg, "text").map { it.textContent }
        for (t in listOf(
            "100", "200", "500", "1k", "10k", "100k", "200k", "limit (log scale)", "req/s (log scale)",
            "64 connections, closed loop, server without a CPU budget", "direct netty",
            "completableFuture tomcat",
        )) {
            assertTrue(t in texts, "'$t' not among the SVG's texts: $texts")
        }
        assertEquals(4, elements(svg, "g").count { it.getAttribute("class") == "series-line" })
        // One bar per point with an interval: 4 series × 5 limits, each a line and two caps.
        val bars = elements(svg, "g").filter { it.getAttribute("class") == "error-bar" }
        assertEquals(20, bars.size)
        assertTrue(bars.all { it.getElementsByTagName("line").length + it.getElementsByTagName("path").length == 3 })
    }

    @Test
    fun `points without an interval get no error bar`(@TempDir dir: File) {
        val runs = offload().map { it.copy(primary = Metric(it.primary.score, Double.NaN, "ops/s")) }
        Charts.write(runs, dir, dir)
        val svg = parse(File(dir, "cpu-limit-throughput.svg"))
        assertTrue(elements(svg, "g").none { it.getAttribute("class") == "error-bar" })
        // The p99 chart still has its own intervals.
        val p99 = parse(File(dir, "cpu-limit-p99.svg"))
        assertEquals(20, elements(p99, "g").count { it.getAttribute("class") == "error-bar" })
    }

    /**
     * A chart to look at: `mvn -o surefire:test -Dtest=ChartsTest -Dserverbench.chartsExample=/tmp/charts-example`
     * writes the synthetic offload sweep there; without the property it is drawn into a temporary directory.
     */
    @Test
    fun `an example to look at`(@TempDir dir: File) {
        val out = System.getProperty("serverbench.chartsExample")?.let(::File) ?: dir
        Charts.write(offload(), out, out)
        // Twelve series: three connection counts of each variant and server.
        val many = listOf(16, 64, 256).flatMap { c ->
            offload().map { r ->
                val score = r.primary.score * (c / 64.0).pow(0.15)
                r.copy(
                    benchmark = r.benchmark.replace("Cpu", "Many"),
                    params = r.params + ("concurrency" to "$c"),
                    primary = Metric(score, score * 0.05, "ops/s"),
                )
            }
        }
        Charts.write(many, out, out)
        // Linear axes: a sweep within a decade.
        val linear = offload().filter { it.params["limit"] == "100" }.flatMap { r ->
            listOf(50, 100, 200, 300, 400).map { t ->
                val score = r.primary.score * (0.55 + t / 900.0)
                r.copy(
                    benchmark = r.benchmark.replace("Cpu", "Linear"),
                    params = r.params + ("threads" to "$t"),
                    primary = Metric(score, score * 0.04, "ops/s"),
                )
            }
        }
        Charts.write(linear, out, out)
        assertTrue(File(out, "cpu-limit-throughput.png").length() > 10_000)
    }

    private fun parse(file: File) = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file)

    private fun elements(doc: org.w3c.dom.Document, tag: String): List<Element> =
        doc.getElementsByTagName(tag).let { nodes ->
            (
                0 until
                    nodes.length
                ).map { nodes.item(it) as Element }
        }

    companion object {
        /** A cpu-offload-like sweep: direct and completableFuture on netty and tomcat, limit 100..300000, ±5 %. */
        fun offload(): List<BenchmarkResult> = listOf("direct", "completableFuture").flatMap { variant ->
            listOf("netty", "tomcat").flatMap { server ->
                listOf(100, 1000, 10000, 100000, 300000).map { limit ->
                    val speed = (if (server == "netty") 1.0 else 0.85) * (if (variant == "direct") 1.0 else 0.9)
                    val score = 40000 * 100.0.pow(0.8) / limit.toDouble().pow(0.8) * speed
                    val p99 = 64 * 1000.0 / score * 2.5
                    row(
                        "CpuBenchmark.$variant",
                        mapOf("concurrency" to "64", "limit" to "$limit", "server" to server, "rate" to "0"),
                        score,
                        score * 0.05,
                        mapOf("latency.p99" to Metric(p99, p99 * 0.1, "ms", p99 * 0.95, p99 * 1.15, samples = 5)),
                        jdkVersion = "17.0.15",
                        forks = 1,
                        iterations = 5,
                        iterationTime = "5 s",
                    )
                }
            }
        }
    }
}
