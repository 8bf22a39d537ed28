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

/** The capacity verdict: a lead is claimed only where the two searches' brackets are apart. */
class CapacityVerdictsTest {
    private fun verdict(a: BenchmarkResult, b: BenchmarkResult) =
        CapacityVerdicts.verdict(Capacity.of(a)!!, Capacity.of(b)!!)

    @Test
    fun `disjoint brackets give the lead, by how much, beyond the search's brackets`() {
        assertEquals(
            "**netty direct** serves 31 % more than tomcat direct (1,200 vs 916 req/s), beyond the search's " +
                "brackets: netty met 1,200 req/s, above the 944 at which tomcat missed; one search a side, which " +
                "says nothing of a rerun (-f 3: the lead must then hold for every fork)",
            verdict(
                capacityRow("tomcat", Kind.BRACKETED, 916.0, 944.0),
                capacityRow("netty", Kind.BRACKETED, 1200.0, 1236.0),
            ),
        )
    }

    @Test
    fun `with two forks a side the lead must hold for every fork, and then no rerun caveat`(@TempDir dir: File) {
        fun searched(server: String, vararg brackets: Pair<Double, Double>): BenchmarkResult {
            val files = brackets.mapIndexed { i, (low, high) ->
                capacityFile(File(dir, server), Kind.BRACKETED, low, high, emptyList(), pid = i + 1)
            }
            val best = brackets.maxBy { it.first }
            return capacityRow(server, Kind.BRACKETED, best.first, best.second, files = files)
        }
        assertEquals(
            // Each side's lowest met rate, and the highest rate at which the other missed.
            "**netty direct** serves 25 % more than tomcat direct (1,200 vs 960 req/s), beyond the search's " +
                "brackets: netty met 1,200 req/s, above the 1,100 at which tomcat missed",
            verdict(
                searched("tomcat", 1000.0 to 1030.0, 960.0 to 1100.0),
                searched("netty", 1300.0 to 1330.0, 1200.0 to 1236.0),
            ),
        )
        // One fork of tomcat's missed only above what one of netty's met: the forks do not order them.
        assertTrue(
            verdict(
                searched("tomcat", 1000.0 to 1030.0, 960.0 to 1250.0),
                searched("netty", 1300.0 to 1330.0, 1200.0 to 1236.0),
            ).endsWith("no verdict"),
        )
    }

    @Test
    fun `overlapping brackets, or one met where the other missed it, give no verdict`() {
        assertEquals(
            "netty direct 1,200–1,236 and tomcat direct 1,190–1,226 req/s: the brackets overlap, within the " +
                "search's precision: no verdict",
            verdict(
                capacityRow("netty", Kind.BRACKETED, 1200.0, 1236.0),
                capacityRow("tomcat", Kind.BRACKETED, 1190.0, 1226.0),
            ),
        )
        // Met at the very rate the other missed at: not above it.
        assertTrue(
            verdict(
                capacityRow("netty", Kind.BRACKETED, 1226.0, 1262.0),
                capacityRow("tomcat", Kind.BRACKETED, 1190.0, 1226.0),
            ).endsWith("no verdict"),
        )
    }

    @Test
    fun `a lower bound above the other's missed rate leads by at least, below it or beaten gives no verdict`() {
        assertEquals(
            "**netty direct** serves at least 2.5× as much as tomcat direct (≥ 2,400 vs 960 req/s), beyond the " +
                "search's brackets: netty met 2,400 req/s, above the 990 at which tomcat missed; one search a " +
                "side, which says nothing of a rerun (-f 3: the lead must then hold for every fork)",
            verdict(
                capacityRow("tomcat", Kind.BRACKETED, 960.0, 990.0),
                capacityRow("netty", Kind.LOWER_BOUND, 2400.0, null),
            ),
        )
        assertEquals(
            "netty direct ≥ 980 and tomcat direct 960–990 req/s: the lower bound is not above tomcat's missed rate, " +
                "within the search's precision: no verdict",
            verdict(
                capacityRow("tomcat", Kind.BRACKETED, 960.0, 990.0),
                capacityRow("netty", Kind.LOWER_BOUND, 980.0, null),
            ),
        )
        // A bracket above a lower bound says nothing: the lower bound may be higher still.
        assertEquals(
            "tomcat direct 2,000–2,060 and netty direct ≥ 1,000 req/s: netty's is a lower bound that may be higher, " +
                "so no verdict",
            verdict(
                capacityRow("tomcat", Kind.BRACKETED, 2000.0, 2060.0),
                capacityRow("netty", Kind.LOWER_BOUND, 1000.0, null),
            ),
        )
    }

    @Test
    fun `with several forks the lowest rate any met counts against the highest any missed`(@TempDir dir: File) {
        fun fork(low: Double, high: Double, pid: Int) = capacityFile(
            File(dir, "$pid"),
            Kind.BRACKETED,
            low,
            high,
            listOf(StepLine(low, 1.0, 2.0, "MET")),
            pid = pid,
        )
        // Each fork's bracket is apart from tomcat's, and the run-level (highest) figures too; but one fork met only
        // 1,000, below the 1,010 at which tomcat's slower fork missed.
        val netty = capacityRow(
            "netty",
            Kind.BRACKETED,
            1200.0,
            1236.0,
            files = listOf(fork(1000.0, 1030.0, 1), fork(1200.0, 1236.0, 2)),
        )
        val tomcat = capacityRow(
            "tomcat",
            Kind.BRACKETED,
            980.0,
            1010.0,
            files = listOf(fork(900.0, 927.0, 3), fork(980.0, 1010.0, 4)),
        )
        assertTrue(verdict(netty, tomcat).endsWith("no verdict"), verdict(netty, tomcat))
    }

    @Test
    fun `rows of the load generator's limit, inconclusive or not met are named with why, never ranked`() {
        val lines = CapacityVerdicts.lines(
            "**Cpu**",
            listOf(
                capacityRow("netty", Kind.BRACKETED, 1200.0, 1236.0),
                capacityRow("tomcat", Kind.CLIENT_SATURATED, 2400.0, null),
                capacityRow("jetty", Kind.NOT_MET, null, 1.0),
            ),
        )!!
        assertEquals(
            listOf(
                "- **Cpu**, capacity within p99 ≤ 100 ms: only **netty direct** has a capacity to compare: 1,200 " +
                    "req/s, bracketed (missed at 1,236).",
                "  Not compared: jetty direct (not met: missed the objective at every rate tried); tomcat direct " +
                    "(limited by the load generator: the figure is the client's, not the server's).",
            ),
            lines,
        )
        assertNull(CapacityVerdicts.lines("**Cpu**", listOf(row("CpuBenchmark.direct", mapOf("server" to "netty")))))
    }

    @Test
    fun `the findings compare a capacity group by its searches and say the load was a search`() {
        val findings = Findings.markdown(
            listOf(
                capacityRow("tomcat", Kind.BRACKETED, 916.0, 944.0),
                capacityRow("netty", Kind.BRACKETED, 1200.0, 1236.0),
            ),
        )
        assertTrue(
            "Conditions: capacity search for p99 ≤ 100 ms (fixed-rate open-loop steps, at most 64 connections)" in
                findings,
            findings,
        )
        assertTrue(
            "- **Cpu**, capacity within p99 ≤ 100 ms: **netty direct** serves 31 % more than tomcat direct" in findings,
            findings,
        )
        assertTrue("most req/s" !in findings, findings)
    }
}
