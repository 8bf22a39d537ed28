package serverbench.compare

import org.openjdk.jmh.profile.ProfilerException
import org.openjdk.jmh.runner.options.CommandLineOptions
import serverbench.launcher.ParamCheck
import serverbench.launcher.Plan
import serverbench.live.LiveMeasurement
import serverbench.live.LivePlan
import serverbench.live.LiveRow
import serverbench.live.LiveServer
import serverbench.live.LiveTarget
import serverbench.live.Metrics
import serverbench.live.Side
import serverbench.profile.ServerProfiles
import java.io.File
import java.io.PrintStream
import java.util.concurrent.CountDownLatch

/**
 * `scripts/compare`'s default: every configuration's sides live at once ([LiveMeasurement]), each side's server in
 * processes of its own started from its own jar, `java` and JVM options, one load client here driving one process at
 * a time in interleaved windows. Configurations (benchmark × the shared parameters) run one after another, each with
 * its own servers and a share of the budget.
 */
class LiveCompare(
    private val base: Configuration,
    private val head: Configuration,
    /** The regex and the JMH options after it. */
    private val common: List<String>,
    private val plan: LivePlan,
    private val dir: File,
    private val err: PrintStream,
) {
    open class Refused(message: String) : Exception(message)

    /** A right command that a live comparison cannot measure ([LiveTarget.NotLive]); fork by fork can. */
    class NotLive(message: String) : Refused(message)

    /** One configuration: the base and head runs of it. */
    class Pairing(val base: Plan.Run, val head: Plan.Run, val key: Map<String, String>)

    class Result(val rows: List<LiveRow>, val markdown: String, val json: String, val interrupted: Boolean)

    /** The configurations to compare; [Refused] with one line when a side's options cannot run or cannot run live. */
    fun pairings(): List<Pairing> {
        checkProfilers()
        val sideParams = base.params + head.params
        val baseRuns = runs(base)
        val headRuns = runs(head).associateBy { keyOf(it, sideParams) }
        val out = baseRuns.mapNotNull { b ->
            headRuns[keyOf(b, sideParams)]?.let { Pairing(b, it, keyOf(b, sideParams)) }
        }
        if (out.isEmpty()) throw Refused("no benchmark matches '${common.first()}' on both sides")
        for (p in out) {
            for ((config, run) in listOf(base to p.base, head to p.head)) {
                try {
                    LiveTarget.of(run.benchmark, run.params, served = config.serve.isNotEmpty())
                } catch (e: LiveTarget.NotLive) {
                    throw NotLive(e.message ?: "$run cannot run live")
                } catch (e: IllegalArgumentException) {
                    throw Refused(e.message ?: "$run cannot run live")
                } catch (e: NumberFormatException) {
                    throw Refused("${run.describe()}: ${e.message}")
                }
            }
        }
        return out
    }

    /** `-prof flame` with options a live comparison takes, or none; another profiler runs fork by fork. */
    private fun checkProfilers() {
        profilers.firstOrNull { it != "flame" && !it.startsWith("flame:") }?.let {
            throw NotLive("-prof $it: a live comparison profiles its servers with flame only; --mode forks runs JMH's")
        }
        if (profilers.size > 1) throw Refused("-prof flame once: a live comparison profiles with one event at a time")
        flame?.let { line ->
            try {
                ServerProfiles(line, dir, "", emptyMap())
            } catch (e: ProfilerException) {
                throw Refused(e.message ?: "-prof flame:$line")
            }
        }
    }

    /** Each `-prof` of [common], as JMH takes them (`-prof NAME[:options]`). */
    private val profilers: List<String> =
        common.withIndex().filter { it.value == "-prof" }.mapNotNull { common.getOrNull(it.index + 1) }

    /** `-prof flame`'s options ("" for none), or null when not asked. */
    private val flame: String? = profilers.firstOrNull { it == "flame" || it.startsWith("flame:") }
        ?.removePrefix("flame")?.removePrefix(":")

    private fun keyOf(run: Plan.Run, sideParams: Set<String>): Map<String, String> =
        mapOf("benchmark" to run.benchmark) + run.params.filterKeys { it !in sideParams }.toSortedMap()

    private fun runs(config: Configuration): List<Plan.Run> {
        // -prof is this comparison's, not a fork's: JMH's parser need not resolve it.
        val args = (withoutProfilers(common) + config.jmhOptions).filterNot { it.startsWith("-D") }.toTypedArray()
        val options = try {
            CommandLineOptions(*args)
        } catch (e: Exception) {
            throw Refused("${config.name}: ${e.message}")
        }
        val runs = Plan.runs(options)
        ParamCheck.check(ParamCheck.given(args), runs, Plan.declaredParams(options))?.let {
            throw Refused("the ${config.name} side's $it; nothing was started")
        }
        return runs
    }

    private fun withoutProfilers(args: List<String>): List<String> =
        args.filterIndexed { i, a -> a != "-prof" && args.getOrNull(i - 1) != "-prof" }

    /** Measures every pairing in turn; Ctrl-C keeps every window and says the verdict so far. */
    fun run(pairings: List<Pairing>): Result {
        val rows = ArrayList<LiveRow>()
        val notes = ArrayList<String>()
        var interrupted = false
        var testedPlan = plan
        val share = plan.budgetSeconds / pairings.size
        for ((i, p) in pairings.withIndex()) {
            val name = LiveTarget.describe(p.base.benchmark, p.key - "benchmark")
            err.println("live: ${i + 1} of ${pairings.size}: $name")
            val rowPlan = plan.copy(budgetSeconds = share)
            val targets = mapOf(Side.BASE to target(base, p.base), Side.HEAD to target(head, p.head))
            val rowDir = File(dir, "live-${i + 1}")
            val profiles = flame?.let {
                ServerProfiles(it, File(rowDir, "profiles"), p.base.benchmark, p.key - "benchmark")
            }
            val measurement = LiveMeasurement(
                mapOf(
                    Side.BASE to spec(base, targets.getValue(Side.BASE)),
                    Side.HEAD to spec(head, targets.getValue(Side.HEAD)),
                ),
                listOf(LiveMeasurement.Config(name, targets)),
                rowPlan,
                rowDir,
                err,
                profiles = profiles,
            )
            val outcome = measurement.withInterruptHook(
                err,
                "compare: interrupted: stopping after the running window; every window measured is kept",
                finished,
            ) { measurement.run() }
            profiles?.let { notes += graphs(name, it) }
            val found = LiveRow.of(p.base.benchmark, p.key - "benchmark", outcome.windows)
            rows += found
            val measured = found.firstOrNull { it.metric.name == Metrics.THROUGHPUT }?.ratio
            // The pairs measured: fewer than planned where the budget held fewer generations.
            val tested = measured?.let { rowPlan.copy(pairs = it.pairs) }
            tested?.let { testedPlan = it }
            notes += "$name: ${LiveRow.test(tested ?: rowPlan, measured?.let { it.blocks / it.pairs })}; " +
                "stopped: ${outcome.stop}" +
                " (${Math.round(outcome.seconds)} s)" + (outcome.forecast?.let { "; before it: $it" } ?: "")
            outcome.failure?.let { err.println("compare: $name failed: $it (windows kept in ${dir.path}/)") }
            measured?.takeIf { it.processShare > PROCESS_SHARE_TO_SAY }?.let {
                val line = "$name: the pairs' means differ beyond what their windows explain (processes spread by " +
                    "${LiveMeasurement.percent(it.processSpread)}), and that sets most of the interval, with " +
                    "${Math.round(it.degreesOfFreedom)} degrees of freedom: more --pairs narrow it"
                err.println("compare: $line")
                notes += line
            }
            if (outcome.interrupted) {
                interrupted = true
                break
            }
        }
        val note = notes.joinToString("  \n")
        val markdown = LiveRow.markdown(rows, base.describe(), head.describe(), note)
        return Result(rows, markdown, LiveRow.json(rows, LiveRow.test(testedPlan, null)), interrupted)
    }

    /** [profiles]' graphs written, and the line that names them (paths relative to the comparison's folder). */
    private fun graphs(name: String, profiles: ServerProfiles): String {
        val made = try {
            profiles.graphs()
        } catch (e: Exception) {
            err.println("compare: $name: the flamegraphs could not be written: ${e.message}")
            return "$name: no flamegraphs (${e.message})"
        }
        val html = made.filter { it.extension == "html" }.map { it.relativeTo(dir).invariantSeparatorsPath }
        if (html.isEmpty()) return "$name: no flamegraphs: no server kept samples"
        val line = "$name: flamegraphs (`-prof flame`, ${profiles.event} samples of every server from the end of " +
            "warmup on, both sides alike, so the verdict holds under the same profiling): " +
            html.joinToString(", ") { "`$it`" }
        err.println("compare: $line")
        return line
    }

    /** Counted down once compare has written what it measured (after an interrupt too). */
    val finished = CountDownLatch(1)

    /** How [run]'s side starts one server: serve's main class of the side's own jar, on free loopback ports. */
    private fun target(config: Configuration, run: Plan.Run) =
        LiveTarget.of(run.benchmark, run.params, config.serve.isNotEmpty())

    private fun spec(config: Configuration, target: LiveTarget): LiveMeasurement.Spec {
        val served = config.serve.isNotEmpty()
        return LiveMeasurement.Spec(config.describe()) { log ->
            if (served) {
                listOf(config.java, "-Xmx256m", "-XX:+UseSerialGC", "-D${LiveServer.EXIT_WITH_PARENT}=true") +
                    config.jvmOptions.filter { it.startsWith("-Dserverbench.") } +
                    listOf("-cp", config.jar.path, LiveServer.SERVE_CLASS) + config.serve.takeWhile { it != "--" } +
                    listOf("--port", "0", "--log", File(log.parentFile, log.name.replace("-serve", "-service")).path) +
                    config.serve.dropWhile { it != "--" }
            } else {
                target.serveCommand(config.java, config.jar.path, config.jvmOptions)
            }
        }
    }

    companion object {
        /** Where the pairs' spread is more than half the variance, a line says so: it is the process luck's. */
        private const val PROCESS_SHARE_TO_SAY = 0.5
    }
}
