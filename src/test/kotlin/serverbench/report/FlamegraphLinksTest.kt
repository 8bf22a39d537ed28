package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.profile.ProfileLayout
import serverbench.testing.ProcessResult
import serverbench.testing.runProcess
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.minutes

/**
 * `scripts/report` as a user runs it, from the project directory: a flamegraph is shown only with the run that made it,
 * as its result file records, whatever else `profiles/` holds for the same benchmark and parameters.
 */
class FlamegraphLinksTest {
    private val benchmark = "serverbench.benchmarks.CpuBenchmark.direct"
    private val limit1000 = mapOf("concurrency" to "64", "limit" to "1000", "server" to "netty")
    private val limit10000 = mapOf("concurrency" to "64", "limit" to "10000", "server" to "netty")

    /** A graph and its collapsed stacks in `profiles/[session]/...` (no session: the layout before sessions). */
    private fun profile(root: File, session: String?, params: Map<String, String>, frame: String): List<File> {
        val profiles = File(root, "profiles").let { if (session == null) it else File(it, session) }
        val dir = ProfileLayout.dir(profiles, benchmark, params).apply { mkdirs() }
        return listOf(
            File(dir, "cpu.html").apply { writeText("<html>$frame</html>") },
            File(dir, "cpu.collapsed").apply { writeText("Thread.run;Handler.direct;$frame 50\n") },
        )
    }

    /** A result file as the launcher writes it: entries of profiled runs list their files relative to it. */
    private fun results(file: File, vararg runs: Pair<Map<String, String>, List<File>>) {
        file.parentFile.mkdirs()
        file.writeText(
            runs.joinToString(",\n", "[\n", "\n]\n") { (params, profiles) ->
                val listed = if (profiles.isEmpty()) {
                    ""
                } else {
                    profiles.joinToString(", ", ",\n  \"profiles\": [", "]") {
                        "\"" + it.relativeTo(file.parentFile).invariantSeparatorsPath + "\""
                    }
                }
                """{"benchmark": "$benchmark", "mode": "thrpt",
              |  "params": {${params.entries.joinToString(", ") { "\"${it.key}\": \"${it.value}\"" }}},
              |  "primaryMetric": {"score": 1000, "scoreError": 10, "scoreUnit": "ops/s"},
              |  "secondaryMetrics": {}$listed}"""
                    .trimMargin()
            },
        )
    }

    private fun report(dir: File, vararg args: String): ProcessResult {
        val java = File(System.getProperty("java.home"), "bin/java").path
        val classpath = System.getProperty("surefire.test.class.path") ?: System.getProperty("java.class.path")
        val command = listOf(java, "-cp", classpath, "serverbench.report.ReportMain") + args
        return runProcess(command, dir = dir, timeout = 2.minutes, name = "the report")
    }

    private fun links(row: String) = Regex("]\\(([^)]+)\\)").findAll(row).map { it.groupValues[1] }.toList()

    @Test
    fun `each row links only the flamegraphs its own run made, and a row profiled in both runs gets a diff`(
        @TempDir root: File,
    ) {
        // Already on disk: an earlier profiled run's graphs (the layout before sessions) and the baseline's session.
        profile(root, null, limit1000, "stale.Frame")
        profile(root, null, limit10000, "stale.Frame")
        val base1000 = profile(root, "20240101-090000", limit1000, "base.Frame")
        val base10000 = profile(root, "20240101-090000", limit10000, "base.Frame")
        // The head run profiled limit=1000 only.
        val head1000 = profile(root, "20240102-090000", limit1000, "head.Frame")
        results(File(root, "jmh-results/head.json"), limit1000 to head1000, limit10000 to emptyList())
        results(File(root, "jmh-results/base.json"), limit1000 to base1000, limit10000 to base10000)

        val run = report(root, "jmh-results/head.json", "--baseline", "jmh-results/base.json")
        assertEquals(0, run.exitCode, run.stderr)
        val rows = run.stdout.lines().filter { it.startsWith("| direct |") }
        assertEquals(2, rows.size, run.stdout)
        val own = "CpuBenchmark.direct/${ProfileLayout.dirName(limit1000)}"
        assertEquals(
            listOf("profiles/20240102-090000/$own/cpu.html", "jmh-results/head-diff/$own/cpu-diff.html"),
            links(rows.single { it.contains("| 1000 |") }),
        )
        assertEquals(emptyList(), links(rows.single { it.contains("| 10000 |") }), "an unprofiled run has no graph")
        val diff = File(root, "jmh-results/head-diff/$own/cpu-diff.html").readText()
        // A differential graph draws the head's stacks (coloured by the change against the base).
        assertTrue(diff.contains("head.Frame") && !diff.contains("stale.Frame"), diff)

        // Without a baseline: the head run's own graph, and no other.
        val alone = report(root, "jmh-results/head.json")
        assertEquals(
            listOf(listOf("profiles/20240102-090000/$own/cpu.html"), emptyList()),
            alone.stdout.lines().filter { it.startsWith("| direct |") }.map(::links),
            alone.stdout,
        )
    }

    @Test
    fun `the directory options of earlier versions are refused, saying why they are not needed`(@TempDir root: File) {
        results(File(root, "head.json"), limit1000 to emptyList())
        for (option in listOf("--profiles", "--baseline-profiles")) {
            val run = report(root, "head.json", option, "profiles")
            assertEquals(2, run.exitCode, run.stdout)
            assertEquals(
                "report: $option is no longer needed: each result file lists the profiles its own runs made " +
                    "(field \"profiles\"), and the report links and compares only those",
                run.stderr.lines().first(),
            )
        }
    }
}
