@file:JvmName("ReportMain")

package serverbench.report

import joptsimple.OptionException
import joptsimple.OptionParser
import serverbench.profile.ProfileLayout
import java.io.File
import kotlin.system.exitProcess

private const val USAGE =
    "usage: report <head.json> [<more.json>...] [--baseline <base.json>] [--charts <dir>]  (markdown on stdout; " +
        "several head files: their rows in one report, e.g. the harness's and scripts/hyperfoil's)\n" +
        "       report --capacity <run-capacity.json>  (a suite's capacities measured live, without JMH rows)\n" +
        "       report <head.json> --format github-benchmark-bigger|github-benchmark-smaller|bencher  (JSON on stdout)"

/**
 * `scripts/report jmh-results/head.json --baseline jmh-results/base.json > report.md`: the tables (with changes and
 * significance marks against the baseline), SVG charts of swept parameters with a PNG of each beside it (default:
 * `<head>-charts/` beside the head file) and of each run's latency over time where its forks logged it
 * ([LatencyTimeline]), links to the flamegraphs each run made as its result file records them, and
 * a differential flamegraph per row profiled in both runs, made by async-profiler's converter (`jfrconv --diff`).
 * Paths in the markdown are relative to the current directory, where report.md is expected to be written.
 */
fun main(args: Array<String>) {
    val options = ReportOptions.parse(args)
    options.capacity?.let {
        print("# serverbench capacity: ${it.path}\n" + LiveCapacityReport.markdown(it))
        return
    }
    val (headRuns, baseRuns) = try {
        options.heads.flatMap { Results.read(it) } to options.baseline?.let { Results.read(it) }
    } catch (e: IllegalArgumentException) {
        fail(e.message ?: e.toString())
    }
    if (options.format != TrackerExport.Format.MARKDOWN) {
        print(TrackerExport.render(options.format, headRuns) { System.err.println("report: $it") })
        return
    }
    val headFile = options.heads.first()
    val here = File(".")
    val chartDir = options.charts ?: File(headFile.absoluteFile.parentFile, headFile.nameWithoutExtension + "-charts")
    val chartLinks = Charts.write(headRuns, chartDir, here)
    val timelines = LatencyTimeline.write(headRuns, chartDir, here)
    val diffDir = File(chartDir.absoluteFile.parentFile, headFile.nameWithoutExtension + "-diff")
    val baseByKey = baseRuns?.associateBy { it.key } ?: emptyMap()
    // In the markdown too; on the console as well, since the markdown usually goes to a file unread.
    baseRuns?.let { BaselinePairs.clientThreads(headRuns, it) }?.let { System.err.println("report: $it") }
    val capacityCharts = CapacityChart.write(headRuns, chartDir, here)
    val live = LiveFindingsReport.markdown(LiveFindingsReport.fileFor(headFile)) +
        LiveCapacityReport.markdown(LiveCapacityReport.fileFor(headFile))
    val links = Report.Links(chartLinks, timelines, capacityCharts, { run ->
        val diffs = baseByKey[run.key]?.let { Flamegraphs.diff(it, run, diffDir, here) }.orEmpty()
        Flamegraphs.links(run, here) + diffs
    }, live)
    val headName = options.heads.joinToString(" + ") { it.path }
    print(Report.markdown(headRuns, headName, baseRuns, options.baseline?.path, links))
}

/** The command line: head files (more than one: their rows in one report), baseline, charts directory, format. */
private class ReportOptions(
    val heads: List<File>,
    val baseline: File?,
    val charts: File?,
    val format: TrackerExport.Format,
    /** `--capacity`: a suite's capacities measured live, the page's only content. */
    val capacity: File? = null,
) {
    companion object {
        fun parse(args: Array<String>): ReportOptions {
            // jopt-simple, as scripts/serve and -prof flame read theirs; no abbreviations: a typo is never another
            // option.
            val parser = OptionParser(false)
            val baselineSpec = parser.accepts("baseline").withRequiredArg()
            val chartsSpec = parser.accepts("charts").withRequiredArg()
            val capacitySpec = parser.accepts("capacity").withRequiredArg()
            val formatSpec = parser.accepts("format").withRequiredArg().defaultsTo(TrackerExport.Format.MARKDOWN.option)
            // Directories named by benchmark and parameters held other runs' graphs; the result file now says which.
            val retired = listOf("profiles", "baseline-profiles").map { parser.accepts(it).withOptionalArg() }
            val helpSpec = parser.acceptsAll(listOf("h", "help"))
            val set = try {
                parser.parse(*args)
            } catch (e: OptionException) {
                fail(e.message ?: e.toString())
            }
            if (set.has(helpSpec)) {
                println(USAGE)
                exitProcess(0)
            }
            retired.firstOrNull { set.has(it) }?.let {
                fail(
                    "--${it.options().first()} is no longer needed: each result file lists the profiles its own runs " +
                        "made (field \"${ProfileLayout.FIELD}\"), and the report links and compares only those",
                )
            }
            val positional = set.nonOptionArguments().map { File(it.toString()) }
            set.valueOf(capacitySpec)?.let { return capacityPage(File(it), positional) }
            if (positional.isEmpty()) fail("the head result file is missing")
            val baseline = set.valueOf(baselineSpec)?.let { File(it) }
            val charts = set.valueOf(chartsSpec)?.let { File(it) }
            val format = TrackerExport.Format.of(set.valueOf(formatSpec))
                ?: fail("--format ${set.valueOf(formatSpec)}: one of ${TrackerExport.Format.options}")
            if (format != TrackerExport.Format.MARKDOWN && (baseline != null || charts != null)) {
                fail(
                    "--format ${format.option} exports one result file: --baseline and --charts are for the " +
                        "markdown report",
                )
            }
            return ReportOptions(positional, baseline, charts, format)
        }
    }
}

/** `--capacity`: the page of a suite's capacities measured live, which has no JMH rows to go beside. */
private fun capacityPage(capacity: File, positional: List<File>): ReportOptions {
    if (positional.isNotEmpty()) fail("--capacity is a page of its own: no result files beside it")
    if (!capacity.isFile) fail("--capacity $capacity does not exist")
    return ReportOptions(emptyList(), null, null, TrackerExport.Format.MARKDOWN, capacity)
}

private fun fail(message: String): Nothing {
    System.err.println("report: $message\n$USAGE")
    exitProcess(2)
}
