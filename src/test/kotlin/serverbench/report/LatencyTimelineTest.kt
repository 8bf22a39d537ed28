package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.openjdk.jmh.infra.IterationParams
import org.openjdk.jmh.runner.IterationType
import org.openjdk.jmh.runner.options.TimeValue
import org.w3c.dom.Element
import serverbench.metrics.LatencyLog
import serverbench.params.RunName
import serverbench.testing.clientReport
import serverbench.testing.latencies
import java.io.File
import javax.xml.parsers.DocumentBuilderFactory
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** A run's latency logs as the report charts them: p50 and p99 per measured iteration, a pair of lines per fork. */
class LatencyTimelineTest {
    private val head = Results.read(File(javaClass.getResource("/report/head.json")!!.toURI()))
    private val measured = IterationParams(IterationType.MEASUREMENT, 2, TimeValue.seconds(5), 1)

    /** A fork's log of two 5 s iterations, every request at [micros] each; the fork started [startMillis]. */
    private fun log(file: File, startMillis: Long, vararg micros: Long): File {
        file.parentFile.mkdirs()
        val log = LatencyLog({ file })
        micros.forEachIndexed { i, us ->
            val report = clientReport(latencies(us to 100), wallNanos = 5_000_000_000)
            log.interval(measured, report, startMillis + 5_000L * (i + 1))
        }
        log.close()
        return file
    }

    @Test
    fun `a log reads as each iteration's p50 and p99 against the time since the first`(@TempDir dir: File) {
        val fork = LatencyTimeline.read(log(File(dir, "latency-pid1.hlog"), 1_790_000_000_000L, 1_000, 2_000))
        assertEquals(
            listOf(LatencyTimeline.Interval(0.0, 1.0, 1.0), LatencyTimeline.Interval(5.0, 2.0, 2.0)),
            fork.intervals,
        )
        assertEquals(1_790_000_000.0, fork.startSeconds)
    }

    @Test
    fun `a run with latency logs gets a chart linked from its row, and the other rows nothing`(@TempDir dir: File) {
        val logged = head.first()
        val files = File(dir, "head/${RunName.path(logged.benchmark, logged.params)}")
        // The fork that ran second has the smaller pid: lines follow the forks' start times.
        val logs = listOf(
            log(File(files, "latency-pid9.hlog"), 1_790_000_000_000L, 1_000, 2_000),
            log(File(files, "latency-pid5.hlog"), 1_790_000_060_000L, 3_000, 1_500),
        )
        val rows = listOf(logged.copy(files = logs + File(files, "steps-pid9.csv"))) + head.drop(1)
        val timelines = LatencyTimeline.write(rows, File(dir, "charts"), dir)
        val path = "charts/${RunName.path(logged.benchmark, logged.params)}/latency-over-time.svg"
        assertEquals(mapOf(logged.key to path), timelines)
        assertTrue(File(dir, path.removeSuffix(".svg") + ".png").isFile)

        val svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(File(dir, path))
        val g = svg.getElementsByTagName("g")
        assertEquals(4, (0 until g.length).count { (g.item(it) as Element).getAttribute("class") == "series-line" })
        val t = svg.getElementsByTagName("text")
        val texts = (0 until t.length).map { t.item(it).textContent }
        assertTrue(texts.containsAll(listOf("p50 fork 1", "p99 fork 1", "p50 fork 2", "p99 fork 2")), "$texts")
        assertTrue(texts.any { it.contains("latency-pid9.hlog, latency-pid5.hlog") }, "$texts")

        val markdown = Report.markdown(rows, "head.json", null, null, Report.Links(timelines = timelines))
        val headers = markdown.lines().filter { it.contains("| ${ResultTable.TIMELINE} |") }
        assertEquals(1, headers.size, markdown)
        val row = markdown.lines().single { it.contains("($path)") }
        assertTrue(row.startsWith("| ${logged.variant} | netty |") && row.endsWith("| [p50, p99]($path) |"), row)
        // Without logs no chart, no column: the page is as it was.
        assertEquals(emptyMap(), LatencyTimeline.write(head, File(dir, "none"), dir))
        assertFalse(File(dir, "none").exists())
        assertFalse(Report.markdown(head, "head.json", null, null).contains(ResultTable.TIMELINE))
    }
}
