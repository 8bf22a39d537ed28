@file:JvmName("ReportMain")

package serverbench.report

import serverbench.profile.ProfileLayout
import java.io.File
import kotlin.system.exitProcess

private const val USAGE = "usage: report <head.json> [--baseline <base.json>] [--charts <dir>]  (markdown on stdout)"

/**
 * `scripts/report jmh-results/head.json --baseline jmh-results/base.json > report.md`: the tables (with changes and
 * significance marks against the baseline), SVG charts of swept parameters with a PNG of each beside it (default:
 * `<head>-charts/` beside the head file), links to the flamegraphs each run made as its result file records them, and
 * a differential flamegraph per row profiled in both runs, made by async-profiler's converter (`jfrconv --diff`).
 * Paths in the markdown are relative to the current directory, where report.md is expected to be written.
 */
fun main(args: Array<String>) {
    var head: File? = null
    var baseline: File? = null
    var charts: File? = null
    var i = 0
    fun value(flag: String): String = args.getOrNull(++i) ?: fail("$flag needs a value")
    while (i < args.size) {
        when (val a = args[i]) {
            "--baseline" -> baseline = File(value(a))

            "--charts" -> charts = File(value(a))

            // Directories named by benchmark and parameters held other runs' graphs; the result file now says which.
            "--profiles", "--baseline-profiles" -> fail(
                "$a is no longer needed: each result file lists the profiles " +
                    "its own runs made (field \"${ProfileLayout.FIELD}\"), and the report links and compares only those",
            )

            "-h", "--help" -> {
                println(USAGE)
                exitProcess(0)
            }

            else -> if (a.startsWith("-") || head != null) fail("unexpected argument '$a'") else head = File(a)
        }
        i++
    }
    val headFile = head ?: fail("the head result file is missing")
    val (headRuns, baseRuns) = try {
        Results.read(headFile) to baseline?.let { Results.read(it) }
    } catch (e: IllegalArgumentException) {
        fail(e.message ?: e.toString())
    }
    val here = File(".")
    val chartDir = charts ?: File(headFile.absoluteFile.parentFile, headFile.nameWithoutExtension + "-charts")
    val chartLinks = Charts.write(headRuns, chartDir, here)
    val diffDir = File(chartDir.absoluteFile.parentFile, headFile.nameWithoutExtension + "-diff")
    val baseByKey = baseRuns?.associateBy { it.key } ?: emptyMap()
    print(
        Report.markdown(headRuns, headFile.path, baseRuns, baseline?.path, chartLinks) { run ->
            Flamegraphs.links(run, here) + (baseByKey[run.key]?.let { Flamegraphs.diff(it, run, diffDir, here) }.orEmpty())
        },
    )
}

private fun fail(message: String): Nothing {
    System.err.println("report: $message\n$USAGE")
    exitProcess(2)
}
