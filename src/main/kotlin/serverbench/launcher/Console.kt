package serverbench.launcher

import org.openjdk.jmh.results.RunResult
import serverbench.metrics.FigureFormat
import serverbench.metrics.Guards
import serverbench.metrics.MetricCatalogue
import serverbench.params.Knobs
import serverbench.params.LaterParams
import serverbench.params.ParamNames
import java.io.File
import java.io.FileOutputStream
import java.io.PrintStream
import kotlin.math.roundToLong

/**
 * Where a session's output goes. Plain `java -jar`: JMH's conventional output on the screen. A suite
 * (`-Dserverbench.log=<file>`, which `scripts/bench` sets unless `--verbose`): everything JMH and the forks print goes
 * to that file, and the screen gets the plan, one line per run (its figures, or why it failed) and the totals, so
 * that the findings and tables printed after the run hold the last screen.
 */
class Console private constructor(
    private val screen: PrintStream,
    private val screenErr: PrintStream,
    private val log: PrintStream?,
    val logFile: File?,
) : AutoCloseable {
    /** Where JMH's own output (its OutputFormat) is written. */
    val jmh: PrintStream get() = log ?: screen

    val compact: Boolean get() = log != null

    /** A compact run line is open on the screen: its figures follow when the run ends. */
    private var open = false

    fun info(line: String) {
        endLine()
        screen.println(line)
        log?.println(line)
    }

    fun error(line: String) {
        endLine()
        screenErr.println(line)
        log?.println(line)
    }

    /** Compact: the run's name now and its figures on the same line when it ends ([finished]). */
    fun started(line: String) {
        if (log == null) return screen.println(line)
        endLine()
        log.println(line)
        screen.print(line)
        screen.flush()
        open = true
    }

    fun finished(figures: String) {
        if (log == null) return
        log.println(figures)
        if (open) screen.println(" $figures") else screen.println("  $figures")
        open = false
    }

    private fun endLine() {
        if (open) screen.println()
        open = false
    }

    /** Restores the JVM's standard streams and closes the log. */
    override fun close() {
        endLine()
        if (log == null) return
        log.flush()
        System.setOut(screen)
        System.setErr(screenErr)
        log.close()
    }

    companion object {
        const val LOG_PROPERTY = "serverbench.log"

        /**
         * With [LOG_PROPERTY] set, the forks' output (which JMH copies to this JVM's System.out and System.err) and
         * JMH's go to the log from now on. Opened only once a session is about to run: bad input still gets its one
         * line on the screen and leaves no file behind.
         */
        fun open(logPath: String?): Console {
            if (logPath.isNullOrBlank()) return Console(System.out, System.err, null, null)
            val file = File(logPath)
            file.absoluteFile.parentFile?.mkdirs()
            val log = PrintStream(FileOutputStream(file), true, Charsets.UTF_8)
            val console = Console(System.out, System.err, log, file)
            System.setOut(log)
            System.setErr(log)
            return console
        }
    }
}

/** The compact console's words for a run: what it is, and what it measured. */
object RunLine {
    /** Parameters that differ between the session's runs (and always `server`): the rest are said once, up front. */
    fun varying(runs: List<Plan.Run>): Set<String> =
        (listOf(ParamNames.SERVER) + Knobs.varying(runs.map { it.params })).toSet()

    /** "every run: concurrency=64, rate=0 (closed loop)": the parameters every run has, with one value. */
    fun common(runs: List<Plan.Run>): String? {
        val fixed = runs.first().params.filter { (p, v) ->
            p != ParamNames.SERVER && !Knobs.unset(p, v) && !LaterParams.isDefault(p, v) &&
                runs.all { it.params[p] == v }
        }
        if (fixed.isEmpty()) return null
        val search = fixed[ParamNames.OBJECTIVE]
        val loop = when (val rate = fixed[ParamNames.RATE]) {
            null -> ""

            "0" -> if (search !=
                null
            ) {
                " (capacity search: open-loop steps at the rates it chooses)"
            } else {
                " (closed loop)"
            }

            else -> " (open loop at $rate req/s)"
        }
        return "every run: " + fixed.entries.joinToString(", ") { "${it.key}=${it.value}" } + loop
    }

    fun name(index: Int, runs: List<Plan.Run>, eta: String): String {
        val run = runs[index]
        val shown = varying(runs)
        val params = run.params.filter { (p, v) -> p in shown && !Knobs.unset(p, v) }.entries
            .joinToString(", ") { "${it.key}=${it.value}" }
        val width = runs.size.toString().length
        return "[${(index + 1).toString().padStart(width)}/${runs.size}, ETA $eta] " +
            run.benchmark.removePrefix("serverbench.benchmarks.") + (if (params.isEmpty()) "" else " ($params)") + ":"
    }

    /**
     * "43,254 ± 417 req/s, p99 4.21 ms, 0 errors, warmed up 25 s; warnings: notSteady"; requests with a body add
     * "1106 B in, 566 B out per req" after the errors.
     */
    fun figures(result: RunResult): String {
        val primary = result.primaryResult
        val secondary = result.secondaryResults
        fun score(name: String) = secondary[name]?.getScore()?.takeIf { it.isFinite() }
        val error = primary.getScoreError().takeIf { it.isFinite() }
        val parts = ArrayList<String>()
        parts +=
            FigureFormat.format(primary.getScore()) + (error?.let { " ± ${FigureFormat.format(it)}" } ?: "") + " req/s"
        score(MetricCatalogue.P99.name)?.let { parts += "p99 ${FigureFormat.format(it)} ms" }
        score(MetricCatalogue.ERRORS.name)?.let { parts += "${it.toLong()} errors" }
        val bytesIn = score(MetricCatalogue.BYTES_IN_PER_REQ.name)
        val bytesOut = score(MetricCatalogue.BYTES_OUT_PER_REQ.name)
        if (bytesIn != null && bytesOut != null) {
            parts += "${bytesIn.roundToLong()} B in, ${bytesOut.roundToLong()} B out per req"
        }
        score(MetricCatalogue.WARMUP_SECONDS.name)?.let { parts += "warmed up ${it.toLong()} s" }
        val warnings = secondary.keys.filter { it.startsWith(Guards.WARNING_PREFIX) && (score(it) ?: 0.0) > 0 }
            .map { it.removePrefix(Guards.WARNING_PREFIX) }
        return parts.joinToString(", ") + (if (warnings.isEmpty()) "" else "; WARNING: ${warnings.joinToString(", ")}")
    }
}
