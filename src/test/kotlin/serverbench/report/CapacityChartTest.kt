package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.w3c.dom.Element
import serverbench.metrics.CapacitySearch.Kind
import serverbench.testing.StepLine
import serverbench.testing.capacityFile
import serverbench.testing.capacityRow
import java.io.File
import javax.xml.parsers.DocumentBuilderFactory
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** The capacity chart, drawn from synthetic steps files: its series, lines and what it leaves out or clips. */
class CapacityChartTest {
    /** Tomcat bracketed at 99–101 req/s (as the sample run); Netty with a step its load generator could not keep. */
    private fun runs(dir: File): List<BenchmarkResult> {
        val tomcat = capacityFile(
            File(dir, "tomcat"),
            Kind.BRACKETED,
            99.0,
            101.0,
            listOf(
                StepLine(24.0, 102.7, 104.6, "MET"),
                StepLine(48.0, 102.1, 103.7, "MET"),
                StepLine(96.0, 102.0, 105.6, "MET"),
                StepLine(192.0, 2730.0, 6414.0, "MISSED"),
                StepLine(120.0, 1173.0, 1974.0, "MISSED"),
                StepLine(99.0, 104.8, 114.8, "MET"),
                StepLine(101.0, 200.7, 299.0, "MISSED"),
                StepLine(99.0, 103.9, 115.4, "MET"),
            ),
            limitMs = 250.0,
        )
        val netty = capacityFile(
            File(dir, "netty"),
            Kind.CLIENT_SATURATED,
            192.0,
            null,
            listOf(
                StepLine(48.0, 101.0, 103.0, "MET"),
                StepLine(96.0, 101.0, 103.0, "MET"),
                StepLine(192.0, 101.0, 104.0, "MET"),
                StepLine(384.0, 101.0, 900.0, "CLIENT", "behind"),
            ),
            limitMs = 250.0,
            why = "at 384 req/s: behind",
        )
        return listOf(
            capacityRow("tomcat", Kind.BRACKETED, 99.0, 101.0, objective = "p99:250ms", files = listOf(tomcat)),
            capacityRow("netty", Kind.CLIENT_SATURATED, 192.0, null, objective = "p99:250ms", files = listOf(netty)),
        )
    }

    @Test
    fun `per stack p50 and p99 by rate, the client's step left out, a missed step clipped at 20 x the objective`(
        @TempDir dir: File,
    ) {
        val plot = CapacityChart.plot(runs(dir).mapNotNull { Capacity.of(it) })
        assertEquals(listOf("netty p50", "netty p99", "tomcat p50", "tomcat p99"), plot.series.keys.toList())
        assertEquals(
            listOf(24.0, 48.0, 96.0, 99.0, 99.0, 101.0, 120.0, 192.0),
            plot.series["tomcat p99"]!!.map { it.x },
        )
        assertEquals(listOf(48.0, 96.0, 192.0), plot.series["netty p99"]!!.map { it.x })
        assertEquals(5000.0, plot.clipAt)
        assertEquals(listOf(Triple("tomcat p99", 192.0, 6414.0)), plot.clipped)
        assertEquals(5000.0, plot.series["tomcat p99"]!!.last().y)
        assertEquals(
            listOf("netty 384 req/s (the load generator could not keep the rate)"),
            plot.leftOut,
        )
        val conditions = CapacityChart.conditions(plot)
        assertEquals(
            "capacity search: fixed-rate open-loop steps of 10 s, at most 64 connections, server without a CPU budget",
            conditions[0],
        )
        assertEquals("limit=1000, JDK 17.0.15", conditions[1])
        assertTrue(conditions.any { it.startsWith("left out: netty 384 req/s") }, "$conditions")
        assertTrue(conditions.any { it.startsWith("latency above 5,000 ms (20 × the objective)") }, "$conditions")
    }

    @Test
    fun `write gives an SVG with the series, the objective's line and each capacity, and a PNG beside it`(
        @TempDir dir: File,
    ) {
        val out = File(dir, "charts")
        val charts = CapacityChart.write(runs(dir), out, dir)
        assertEquals(listOf("charts/capacity-cpu-direct.svg"), charts)
        assertTrue(File(out, "capacity-cpu-direct.png").length() > 10_000)
        val svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(File(dir, charts.single()))
        val texts = elements(svg, "text").map { it.textContent }
        for (t in listOf(
            "netty p50", "netty p99", "tomcat p50", "tomcat p99", "objective: p99 ≤ 250 ms",
            "tomcat capacity: 99 (bracketed)", "netty capacity: ≥ 192, limited by the load generator at 384",
            "6,414 ms", "offered rate (req/s)", "latency (ms) (log scale)",
        )) {
            assertTrue(t in texts, "'$t' not among the SVG's texts: $texts")
        }
        assertEquals(4, elements(svg, "g").count { it.getAttribute("class") == "series-line" })
    }

    @Test
    fun `no steps file, no chart`() {
        assertEquals(
            emptyList(),
            CapacityChart.write(listOf(capacityRow("tomcat", Kind.BRACKETED, 99.0, 101.0)), File("unused"), File(".")),
        )
    }

    private fun elements(doc: org.w3c.dom.Document, tag: String): List<Element> =
        doc.getElementsByTagName(tag).let { nodes -> (0 until nodes.length).map { nodes.item(it) as Element } }
}
