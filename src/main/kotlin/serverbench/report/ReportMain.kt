@file:JvmName("ReportMain")

package serverbench.report

import java.io.File
import kotlin.system.exitProcess

private const val USAGE = "usage: report <head.json> [--baseline <base.json>] [--charts <dir>] [--profiles <dir>] " +
    "[--baseline-profiles <dir>]  (markdown on stdout)"

/**
 * `scripts/report jmh-results/head.json --baseline jmh-results/base.json > report.md`: the tables (with changes and
 * significance marks against the baseline), SVG charts of swept parameters (default: `<head>-charts/` beside the head
 * file) and links to flamegraphs found under `profiles/<Class.method>/<param=value,...>/`; with `--baseline-profiles`
 * (the baseline run's profiles directory), a differential flamegraph per row that has both, made by async-profiler's
 * converter (`jfrconv --diff`). Paths in the markdown are relative to the current directory, where report.md is
 * expected to be written.
 */
fun main(args: Array<String>) {
    var head: File? = null
    var baseline: File? = null
    var charts: File? = null
    var profiles = File("profiles")
    var baselineProfiles: File? = null
    var i = 0
    fun value(flag: String): String = args.getOrNull(++i) ?: fail("$flag needs a value")
    while (i < args.size) {
        when (val a = args[i]) {
            "--baseline" -> baseline = File(value(a))
            "--charts" -> charts = File(value(a))
            "--profiles" -> profiles = File(value(a))
            "--baseline-profiles" -> baselineProfiles = File(value(a))
            "-h", "--help" -> { println(USAGE); exitProcess(0) }
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
    val chartDir = charts ?: File(headFile.absoluteFile.parentFile, headFile.nameWithoutExtension + "-charts")
    val chartLinks = Charts.write(headRuns, chartDir, File("."))
    val diffDir = File(chartDir.parentFile, headFile.nameWithoutExtension + "-diff")
    print(Report.markdown(headRuns, headFile.path, baseRuns, baseline?.path, chartLinks) { run ->
        Flamegraphs.find(profiles, run) + (baselineProfiles?.let { Flamegraphs.diff(it, profiles, run, diffDir) } ?: emptyList())
    })
}

private fun fail(message: String): Nothing {
    System.err.println("report: $message\n$USAGE")
    exitProcess(2)
}

/** Where `-prof flame` writes (`profiles/<Class.method>/<param=value,...>/<event>.html`), and what it wrote for a run. */
object Flamegraphs {
    /** `concurrency=16,limit=1000,server=netty`; characters a path cannot hold (the `/` of `n/a`) become `_`. */
    fun dirName(params: Map<String, String>): String = params.toSortedMap().entries
        .joinToString(",") { "${it.key}=${it.value}" }.replace(Regex("[^A-Za-z0-9._=,+-]"), "_")

    /** The directory of one benchmark method's profiles with these parameters. */
    fun dir(root: File, benchmark: String, params: Map<String, String>) =
        File(File(root, benchmark.removePrefix("serverbench.benchmarks.")), dirName(params))

    /**
     * Differential flamegraphs (baseline -> head) for every event both profile trees hold for [run], written under
     * [out] by async-profiler's converter from the `.collapsed` files; returns their paths.
     */
    fun diff(baseRoot: File, headRoot: File, run: Run, out: File): List<String> {
        val head = dir(headRoot, run.benchmark, run.params)
        val base = dir(baseRoot, run.benchmark, run.params)
        return head.listFiles { f -> f.name.endsWith(".collapsed") }.orEmpty().sortedBy { it.name }.mapNotNull { h ->
            val b = File(base, h.name).takeIf { it.isFile } ?: return@mapNotNull null
            val target = File(dir(out, run.benchmark, run.params), h.name.removeSuffix(".collapsed") + "-diff.html")
            target.parentFile.mkdirs()
            // The converter prints a progress line on stdout, where the markdown goes.
            val stdout = System.out
            System.setOut(System.err)
            try {
                one.convert.Main.main(arrayOf("--diff", b.path, h.path, target.path))
            } finally {
                System.setOut(stdout)
            }
            target.absoluteFile.relativeTo(File("").absoluteFile).path
        }
    }

    fun find(root: File, run: Run): List<String> {
        val dir = dir(root, run.benchmark, run.params)
        return dir.listFiles { f -> f.isFile && f.name.endsWith(".html") }?.sortedBy { it.name }
            ?.map { it.path } ?: emptyList()
    }
}
