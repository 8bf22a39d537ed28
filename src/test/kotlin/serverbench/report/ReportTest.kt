package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.w3c.dom.Element
import serverbench.profile.ProfileLayout
import serverbench.testing.clientThreads
import serverbench.testing.errorCount
import serverbench.testing.metric
import serverbench.testing.notSteadyFlag
import serverbench.testing.remoteFlag
import serverbench.testing.row
import serverbench.testing.withSecondary
import java.io.File
import javax.xml.parsers.DocumentBuilderFactory
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** The PR report from golden JMH JSON: base and head differ in three rows, one within noise. */
class ReportTest {
    private fun fixture(name: String) = File(javaClass.getResource("/report/$name")!!.toURI())
    private val head = Results.read(fixture("head.json"))
    private val base = Results.read(fixture("base.json"))

    @Test
    fun `head against baseline gives the expected markdown, with tables, marks and chart links`(@TempDir dir: File) {
        val charts = Charts.write(head, File(dir, "charts"), dir)
        val markdown = Report.markdown(head, "head.json", base, "base.json", Report.Links(charts))
        assertEquals(fixture("expected.md").readText(), markdown)
    }

    @Test
    fun `open-loop rows show the uncorrected p99 beside the corrected one, and fired guards are named`() {
        fun run(rate: String, warning: Double) = row(
            "DelayBenchmark.delay",
            mapOf("server" to "netty", "rate" to rate),
            secondary = mapOf(
                "latency.p99" to metric(1900.0, "ms"),
                "latency.uncorrected.p99" to metric(12.0, "ms"),
                "warning.behindSchedule" to metric(warning, "share"),
            ),
        )
        val rows = Report.markdown(listOf(run("0", 0.0), run("100", 0.4)), "x.json", null, null)
            .lines().filter { it.startsWith("| ") }
        assertTrue(
            rows[0].contains("| rate |") && rows[0].contains("| uncorrected p99 ms |") && rows[0].endsWith(
                "| " +
                    "warnings |",
            ),
            rows[0],
        )
        assertTrue(
            rows[3].contains("| 100 |") && rows[3].contains("| 12.00 |") && rows[3].endsWith(
                "| " +
                    "behindSchedule |",
            ),
            rows[3],
        )
        assertTrue(rows[2].endsWith("|  |"), rows[2])
    }

    @Test
    fun `a table says for how many rows steadiness was not judged, too few iterations`() {
        fun run(server: String, iterations: Int, secondary: Map<String, Metric>) =
            row("NoopBenchmark.hello", mapOf("server" to server), secondary = secondary, iterations = iterations)
        val steady = mapOf(notSteadyFlag())
        val runs = listOf(run("netty", 3, emptyMap()), run("tomcat", 5, steady))
        val note = "Steadiness not judged for 1 of 2 rows: fewer than 5 measured iterations per fork are too few to " +
            "judge whether throughput was steady (`-i 5` or more)"
        assertTrue(Report.markdown(runs, "x.json", null, null).contains("\n$note.\n"))
        val against = Report.markdown(runs, "x.json", runs, "x.json")
        assertTrue(against.contains("\n$note; their changes are marked as if it was.\n"), against)
        assertFalse(Report.markdown(runs.drop(1), "x.json", null, null).contains("not judged"))
    }

    @Test
    fun `counts print as whole numbers`() {
        val run = row(
            "NoopBenchmark.hello",
            mapOf("server" to "netty"),
            secondary = mapOf("threads.peak" to metric(19.0, "threads", error = 0.0), errorCount()),
        )
        val row = Report.markdown(listOf(run), "x.json", null, null).lines().last { it.startsWith("| hello") }
        assertTrue(row.endsWith("| 0 | – | – | – | 19 |"), row)
    }

    @Test
    fun `a report of runs against a target says which host measured which figures, others do not`() {
        fun noop(secondary: Map<String, Metric>) =
            row("NoopBenchmark.hello", mapOf("server" to "netty"), secondary = secondary)
        val cpu = "server.cpu" to Metric(1.4, 0.1, "cores")
        val remote = Report.markdown(listOf(noop(mapOf(remoteFlag(), cpu))), "x", null, null)
        assertTrue(remote.contains("throttling in that server's process"), remote)
        assertFalse(remote.contains("said nothing of its process"), remote)
        assertFalse(Report.markdown(listOf(noop(emptyMap())), "x", null, null).contains("that server's process"))
        // Any HTTP server: no server-side figure, and the page says they are absent rather than leaving it to guess.
        val blind = Report.markdown(listOf(noop(mapOf(remoteFlag()))), "x", null, null)
        assertTrue(blind.contains("The target said nothing of its process"), blind)
        assertFalse(blind.contains("that server's process"), blind)
        val both = Report.markdown(listOf(noop(mapOf(remoteFlag(), cpu)), noop(mapOf(remoteFlag()))), "x", null, null)
        assertTrue(both.contains("In 1 of those runs, the target said nothing"), both)
    }

    @Test
    fun `the database family's rows show how long requests waited for a pooled connection, other families do not`() {
        val db = row(
            "DatabaseBenchmark.jdbc",
            mapOf("server" to "tomcat"),
            secondary = mapOf(
                "db.poolWait.mean" to metric(1500.0, "us", error = 10.0),
                "db.poolWait.max" to metric(42.0, "ms", error = 0.0),
            ),
        )
        val noop = row("NoopBenchmark.hello", mapOf("server" to "netty"), score = 1.0)
        val md = Report.markdown(listOf(db, noop), "x.json", null, null).lines()
        val headers = md.filter { it.startsWith("| variant") }
        assertEquals(2, headers.size, md.joinToString("\n"))
        assertTrue(headers[0].endsWith("| pool wait mean µs | pool wait max ms |"), headers[0])
        assertFalse(headers[1].contains("pool wait"), headers[1])
        assertTrue(md.first { it.startsWith("| jdbc") }.endsWith("| 1,500 | 42.00 |"), md.joinToString("\n"))
    }

    @Test
    fun `budgeted and unbudgeted servers get tables of their own, the budgeted one with its throttling`() {
        fun run(cpus: String, limit: String) = row(
            "CpuBenchmark.direct",
            mapOf("server" to "tomcat", "cpus" to cpus, "cpuset" to "none", "limit" to limit),
            secondary = if (cpus == "unlimited") {
                mapOf("server.cpu" to metric(1.4, "cores"))
            } else {
                mapOf(
                    "server.cpu" to metric(0.98, "cores"),
                    "server.throttled" to metric(0.9, "share"),
                    "server.throttledMs" to metric(850.0, "ms/s"),
                )
            },
        )
        val runs = listOf(run("1", "1000"), run("unlimited", "1000"), run("1", "100000"))
        val md = Report.markdown(runs, "x.json", null, null)
        val unbudgeted = md.indexOf("### Server without a CPU budget")
        val budgeted = md.indexOf("### Server under cpus=1")
        assertTrue(unbudgeted in 0 until budgeted, md)
        val tables = md.substring(budgeted).lines().filter { it.startsWith("| ") }
        assertTrue(
            tables[0].endsWith(
                "| server cores | throttled periods | throttled ms/s " +
                    "|",
            ) && tables[0].contains("| limit |"),
            tables[0],
        )
        assertEquals(4, tables.size, md)
        assertTrue(tables[2].endsWith("| 0.980 | 0.900 | 850.0 |"), tables[2])
        val plain = md.substring(unbudgeted, budgeted).lines().filter { it.startsWith("| ") }
        assertFalse(plain[0].contains("throttled") || plain[0].contains("| cpus |"), plain[0])
    }

    @Test
    fun `a file compared with itself marks nothing significant`() {
        val rows = Report.markdown(head, "head.json", head, "head.json").lines().filter { it.startsWith("| ") }
        assertEquals(2 + head.size, rows.size) // header, separator, one row per result
        assertFalse(rows.any { it.contains("▲") || it.contains("▼") || it.contains("**") }, rows.joinToString("\n"))
        assertTrue(rows.drop(2).all { it.contains("(+0.0 %)") })
    }

    @Test
    fun `a row whose baseline ran on another number of client threads is named in one warning line`() {
        // -p clientThreads=auto is dropped from keys: the baseline's machine resolved it to 1, this run's to 4.
        fun threads(runs: List<BenchmarkResult>, n: Int) = runs.map { it.withSecondary(clientThreads(n)) }
        val report = Report.markdown(threads(head, 4), "head.json", threads(base, 1), "base.json")
        val warning = report.lines().filter { it.startsWith("Warning:") }
        assertEquals(1, warning.size, report)
        assertTrue(
            warning.single().startsWith(
                "Warning: ${head.count { h -> base.any { it.key == h.key } }} rows ran on other numbers of client " +
                    "threads (baseline against this run, `client.threads`): ",
            ),
            warning.single(),
        )
        assertTrue(warning.single().contains(") 1 against 4"), warning.single())
        assertFalse(Report.markdown(threads(head, 1), "h", threads(base, 1), "b").contains("Warning:"))
        // Without a baseline nothing is paired.
        assertFalse(Report.markdown(threads(head, 4), "h", null, null).contains("Warning:"))
    }

    @Test
    fun `a family swept over a parameter gets log-scale SVG charts with one line per variant and server`(
        @TempDir dir: File,
    ) {
        val charts = Charts.write(head, dir, dir)
        assertEquals(listOf("cpu-limit-throughput.svg", "cpu-limit-p99.svg"), charts.getValue("Cpu"))
        assertTrue(File(dir, "cpu-limit-throughput.png").isFile && File(dir, "cpu-limit-p99.png").isFile)
        val svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(File(dir, "cpu-limit-throughput.svg"))
        val g = svg.getElementsByTagName("g")
        assertEquals(2, (0 until g.length).count { (g.item(it) as Element).getAttribute("class") == "series-line" })
        val t = svg.getElementsByTagName("text")
        val texts = (0 until t.length).map { t.item(it).textContent }
        val expected = listOf("limit (log scale)", "req/s (log scale)", "direct netty", "monoParallel tomcat")
        assertTrue(texts.containsAll(expected), "$texts")
    }

    @Test
    fun `a differential flamegraph is made for a row profiled in both runs, its forks summed`(@TempDir dir: File) {
        fun profiled(run: BenchmarkResult, side: String, vararg forks: Int) = run.copy(
            profiles = forks.mapIndexed { i, n ->
                val name = if (forks.size > 1) "cpu-pid$i.collapsed" else "cpu.collapsed"
                File(ProfileLayout.dir(File(dir, side), run.benchmark, run.params).apply { mkdirs() }, name).apply {
                    writeText(
                        "Thread.run;Handler.direct;PrimesKt.isPrime $n\nThread.run;Handler.direct;Json.write " +
                            "20\n",
                    )
                }
            },
        )
        val base = profiled(head.first(), "base", 30)
        val now = profiled(head.first(), "head", 40, 30)
        val printed = printedBy { Flamegraphs.diff(base, now, File(dir, "diff"), dir) }
        // The converter's progress goes to stderr: stdout is where scripts/report writes the markdown.
        assertEquals("", printed.stdout)
        val diffs = printed.value
        assertEquals(listOf("diff/CpuBenchmark.direct/${ProfileLayout.dirName(now.params)}/cpu-diff.html"), diffs)
        val html = File(dir, diffs.single()).readText()
        assertTrue(html.length > 1000 && html.contains("PrimesKt.isPrime"), html)
        assertTrue(Flamegraphs.diff(base, head.first(), File(dir, "diff"), dir).isEmpty(), "no profile in the head run")
    }

    @Test
    fun `no chart without a sweep of three values`(@TempDir dir: File) {
        assertTrue(Charts.write(head.filter { it.params["limit"] != "100000" }, dir, dir).isEmpty())
    }
}
