package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.metrics.CapacitySearch.Kind
import serverbench.testing.StepLine
import serverbench.testing.capacityFile
import serverbench.testing.capacityRow
import serverbench.testing.row
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** The Capacity section: every kind's cells carry the kind with the figure, and the steps file is read as written. */
class CapacityReportTest {
    private fun cells(row: BenchmarkResult) = CapacityReport.cells(Capacity.of(row)!!)

    @Test
    fun `each kind's capacity cell says what the figure is`() {
        assertEquals(
            listOf("Cpu.direct", "tomcat", "p99 ≤ 100 ms"),
            cells(capacityRow("tomcat", Kind.BRACKETED, 99.0, 101.0)).take(3),
        )
        val expected = mapOf(
            capacityRow("tomcat", Kind.BRACKETED, 1200.0, 1236.0) to
                listOf("bracketed", "1,200 (bracketed)", "1,236", "10"),
            capacityRow("netty", Kind.LOWER_BOUND, 1200.0, null) to
                listOf("lower bound", "≥ 1,200 (lower bound)", "– (none missed)", "10"),
            capacityRow("jetty", Kind.CLIENT_SATURATED, 600.0, null) to
                listOf("limited by the load generator", "≥ 600, limited by the load generator", "–", "10"),
            capacityRow("jetty", Kind.CLIENT_SATURATED, null, null) to
                listOf("limited by the load generator", "limited by the load generator", "–", "10"),
            // The rate that met and then missed at its confirmation is in the results, and is no capacity.
            capacityRow("tomcat", Kind.INCONCLUSIVE, 99.0, 101.0) to
                listOf("inconclusive", "none (inconclusive)", "101", "10"),
            capacityRow("tomcat", Kind.NOT_MET, null, 1.5) to listOf("not met", "none (not met)", "1.5", "10"),
        )
        for ((r, cells) in expected) assertEquals(cells, cells(r).subList(3, 7), "${Capacity.of(r)!!.kind}")
        // Without a steps file there is no why to tell.
        assertEquals("–", cells(capacityRow("tomcat", Kind.BRACKETED, 99.0, 101.0)).last())
    }

    @Test
    fun `the steps file gives the why, the rate the client could not keep and the step length`(@TempDir dir: File) {
        val file = capacityFile(
            dir,
            Kind.CLIENT_SATURATED,
            1200.0,
            null,
            listOf(
                StepLine(600.0, 2.0, 4.0, "MET"),
                StepLine(1200.0, 2.5, 6.0, "MET"),
                StepLine(2400.0, Double.NaN, Double.NaN, "CLIENT", "the client sent 2100 of 2400 req/s"),
            ),
            why = "at 2,400 req/s: the load generator could not keep up | the figure is ours",
        )
        val row = capacityRow("jetty", Kind.CLIENT_SATURATED, 1200.0, null, steps = 3, files = listOf(file))
        val c = Capacity.of(row)!!
        assertEquals(3, c.searches.single().steps.size)
        assertTrue(c.searches.single().steps.last().p99.isNaN())
        assertEquals(
            listOf(
                "limited by the load generator",
                "≥ 1,200, limited by the load generator at 2,400",
                "–",
                "3 × 10 s",
                "at 2,400 req/s: the load generator could not keep up \\| the figure is ours",
            ),
            CapacityReport.cells(c).drop(3),
        )
    }

    @Test
    fun `an unreadable steps file is said, not guessed at`(@TempDir dir: File) {
        val broken = File(dir, "capacity-pid1.json").apply { writeText("{not json") }
        val c = Capacity.of(capacityRow("tomcat", Kind.BRACKETED, 99.0, 101.0, files = listOf(broken)))!!
        assertTrue(c.searches.isEmpty())
        assertEquals("steps file capacity-pid1.json unreadable", c.why)
    }

    @Test
    fun `the section appears only with a capacity search, and the family table's capacity has its kind`() {
        val plain = row("CpuBenchmark.direct", mapOf("server" to "netty"))
        assertNull(Capacity.of(plain))
        assertEquals("", CapacityReport.markdown(listOf(plain)))
        val runs = listOf(
            capacityRow("tomcat", Kind.BRACKETED, 99.0, 101.0),
            capacityRow("netty", Kind.LOWER_BOUND, 1200.0, null),
        )
        val section = CapacityReport.markdown(runs, listOf("charts/capacity-cpu-direct.svg"))
        assertTrue(section.startsWith("\n## Capacity\n"), section)
        assertTrue("| Cpu.direct | netty | p99 ≤ 100 ms | lower bound | ≥ 1,200 (lower bound) |" in section, section)
        assertTrue("![capacity-cpu-direct](charts/capacity-cpu-direct.svg)" in section, section)
        val page = Report.markdown(runs, "head.json", null, null)
        assertTrue("| 99 (bracketed) |" in page, page)
        assertTrue("| ≥ 1,200 (lower bound) |" in page.substringAfter("## Cpu"), page)
    }
}
