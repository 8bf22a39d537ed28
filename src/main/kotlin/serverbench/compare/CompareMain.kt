@file:JvmName("CompareMain")

package serverbench.compare

import joptsimple.OptionException
import joptsimple.OptionParser
import serverbench.fixture.RemoteTarget
import serverbench.live.LivePlan
import serverbench.live.LiveRow
import serverbench.live.Metrics
import serverbench.metrics.MetricCatalogue
import serverbench.report.Results
import java.io.File
import java.io.PrintStream
import java.time.LocalDateTime
import java.time.format.DateTimeFormatter
import java.util.Locale
import kotlin.system.exitProcess

private const val USAGE = "usage: scripts/compare [--base-jar J] [--head-jar J] [--base-java J] [--head-java J] " +
    "[--base-args \"...\"] [--head-args \"...\"] [--base-serve \"--jar base.jar ...\"] [--head-serve \"...\"] " +
    "[--base-label TEXT] [--head-label TEXT] [--mode live|forks] [--pairs N] [--at-once N] [--window 1s] " +
    "[--warmup 180s] [--forks N] [--precision P%] [--budget 9m] <regex> [JMH options]"

/**
 * The iteration options of a fork when the user gives none: the main job's 5 × 5 s. Iterations of 1 s, tried first,
 * read 5-10 % below the same fork's steady warmup windows and differed more between forks (docs/compare.md).
 */
private val DEFAULT_TIMING = listOf("-i", "5", "-r", "5s")

/**
 * Forks a side at the first look when the user gives no --forks: the exact test's real level is 4.1 % at 6 + 6 forks
 * against 3.2 % at 5 + 5, and 5 cannot cancel a drift ([ForkOrder]); 4 would mark only forks entirely apart.
 */
private const val DEFAULT_FORKS = 6

/**
 * The req/s interval a run adds forks for: with it a real 3 % change is marked about 5 times in 6 (its estimate must
 * lie beyond the interval's end); with ± 3 % only about half the time.
 */
private const val DEFAULT_PRECISION = "2%"

/** The time a fork-mode run may take before it stops adding forks: a pull request's answer within a quarter hour. */
private const val DEFAULT_BUDGET = "15m"

/**
 * The req/s interval a live run stops at: windows of one process spread about 3 % once warm (docs/compare.md), so
 * ± 1 % comes within the budget on a quiet machine, and a real 3 % change then lies well beyond the interval's end.
 */
private const val DEFAULT_LIVE_PRECISION = "1%"

/** A live run's whole time, its servers' start and warmup included: an answer within 10 minutes, with the build. */
private const val DEFAULT_LIVE_BUDGET = "9m"

/** JMH options that compare sets for every fork itself. */
private val OWNED = mapOf("-f" to "--forks", "-rf" to "compare", "-rff" to "compare", "-o" to "compare")

/**
 * `scripts/compare`: the same benchmarks on two configurations in one sitting, their forks interleaved
 * ([ForkOrder]), each fork a run of a jar's own launcher; then the rows ([Comparison]) as markdown on stdout and as
 * JSON in `jmh-results/compare-<timestamp>.json`, both sides' JMH results and logs in the folder beside it.
 */
fun main(args: Array<String>) {
    exitProcess(Compare(System.out, System.err).run(args))
}

class Compare(private val out: PrintStream, private val err: PrintStream) {
    private class Refused(message: String) : Exception(message)

    fun run(args: Array<String>): Int = try {
        execute(args)
    } catch (e: Refused) {
        err.println("compare: ${e.message}")
        err.println(USAGE)
        2
    } catch (e: OptionException) {
        // A value of the wrong type (--forks many) is found when it is read.
        err.println("compare: ${e.message}")
        err.println(USAGE)
        2
    }

    private fun execute(args: Array<String>): Int {
        val options = Options(args)
        if (options.help) {
            out.println(USAGE)
            return 0
        }
        val common = options.common()
        // Options first, then the sides (their jars and JDKs): a wrong value is refused before a file is looked for.
        // Without --mode, --forks waits for the probe below: a run that falls back to forks takes it.
        val livePlan = if (options.live) options.livePlan(forksAllowed = !options.modeGiven) else null
        val forkPlan = if (livePlan == null) options.plan() else null
        val base = options.side("base")
        val head = options.side("head")
        refuseSideParams(base, head, Configuration.paramValues(common.drop(1)))
        if (livePlan == null) return executeForks(options, forkPlan!!, common, base, head)
        if (options.modeGiven) return executeLive(options, livePlan, common, base, head)
        return if (canGoLive(base, head, common, options.results)) {
            executeLive(options, options.livePlan(forksAllowed = false), common, base, head)
        } else {
            executeForks(options, options.plan(), common, base, head)
        }
    }

    /** Fork by fork, the sides one after another ([Forks]). */
    private fun executeForks(
        options: Options,
        plan: ForkPlan,
        common: List<String>,
        base: Configuration,
        head: Configuration,
    ): Int {
        val timing = if (common.any { it in setOf("-i", "-r", "-wi", "-w") }) emptyList() else DEFAULT_TIMING
        val stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
        val dir = File(options.results, "compare-$stamp")
        val sideParams = base.params + head.params
        val measured = measure(Forks(base, head, common + timing, dir, err), plan, sideParams)
            ?: return 2 // refused or interrupted, as a line said; interrupted, exitProcess waits for the halt
        val comparison = compared(measured.forks, sideParams)
        val note = note(measured, plan, options.budget, (common + timing).drop(1))
        val markdown = ComparisonOutput.markdown(comparison, base.describe(), head.describe(), note)
        out.print(markdown)
        val json = File(options.results, "compare-$stamp.json")
        ComparisonOutput.write(json, ComparisonOutput.json(comparison))
        ComparisonOutput.write(File(options.results, "compare-$stamp.md"), markdown)
        err.println(
            "compare: verdict in ${json.path}, table in ${options.results.path}/compare-$stamp.md, " +
                "each fork's results and log in ${dir.path}/",
        )
        comparison.notCompared.forEach { err.println("compare: $it") }
        comparison.clientThreads?.let { err.println("compare: $it") }
        if (comparison.rows.isEmpty()) {
            if (comparison.notCompared.isEmpty()) {
                err.println("compare: no benchmark completed on both sides; the logs in ${dir.path}/ say why")
            }
            return 1
        }
        return 0
    }

    /**
     * Without --mode, what a live comparison cannot measure (a team's @ServerEndpoints code, TLS, ...) runs fork by
     * fork, with one line that says why: the user's own benchmark compares as a built-in one does.
     */
    private fun canGoLive(base: Configuration, head: Configuration, common: List<String>, results: File): Boolean =
        try {
            LiveCompare(base, head, common, LivePlan(), results, err).pairings()
            true
        } catch (e: LiveCompare.NotLive) {
            // Its message names --mode forks for a run that asked for live; here that is what runs.
            err.println(
                "compare: ${e.message.orEmpty().substringBeforeLast("; --mode forks")}: fork by fork (--mode forks)",
            )
            false
        } catch (e: LiveCompare.Refused) {
            throw Refused(e.message ?: "refused")
        }

    /** The default: every side live at once, interleaved windows ([LiveCompare]). */
    private fun executeLive(
        options: Options,
        plan: LivePlan,
        common: List<String>,
        base: Configuration,
        head: Configuration,
    ): Int {
        val stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
        val dir = File(options.results, "compare-$stamp")
        val live = LiveCompare(base, head, common, plan, dir, err)
        val pairings = try {
            live.pairings()
        } catch (e: LiveCompare.Refused) {
            throw Refused(e.message ?: "refused")
        }
        dir.mkdirs()
        val result = live.run(pairings)
        try {
            out.print(result.markdown)
            val json = File(options.results, "compare-$stamp.json")
            ComparisonOutput.write(json, result.json)
            ComparisonOutput.write(File(options.results, "compare-$stamp.md"), result.markdown)
            val verdicts = result.rows.filter { it.metric.name == Metrics.THROUGHPUT }.joinToString("; ") {
                val r = it.ratio
                "${it.benchmark.substringAfterLast('.')}: req/s head ÷ base " +
                    (
                        r?.let { x -> "%.3f [%.3f, %.3f] ${it.verdict}".format(Locale.ROOT, x.ratio, x.low, x.high) }
                            ?: "none yet"
                        )
            }
            val said = if (result.interrupted) "interrupted; the verdict so far" else "verdict"
            err.println(
                "compare: $said: ${verdicts.ifEmpty { "no window measured" }}; in ${json.path}, table in " +
                    "${options.results.path}/compare-$stamp.md, every window and server log in ${dir.path}/",
            )
        } finally {
            live.finished.countDown()
        }
        if (result.interrupted) Thread.sleep(Long.MAX_VALUE) // the hook halts the JVM; exitProcess would wait for it
        return if (result.rows.isEmpty()) 1 else 0
    }

    /** compare's own options as [args] give them; each reader refuses a value it cannot run, in one line. */
    private class Options(args: Array<String>) {
        private val parser = OptionParser(false).apply {
            // The regex ends compare's own options: what follows is JMH's.
            posixlyCorrect(true)
        }
        private val jars = SIDES.associateWith { parser.accepts("$it-jar").withRequiredArg() }
        private val javas = SIDES.associateWith { parser.accepts("$it-java").withRequiredArg() }
        private val sideArgs = SIDES.associateWith { parser.accepts("$it-args").withRequiredArg().defaultsTo("") }
        private val serves = SIDES.associateWith { parser.accepts("$it-serve").withRequiredArg() }
        private val labels = SIDES.associateWith { parser.accepts("$it-label").withRequiredArg() }
        private val forksSpec = parser.accepts("forks").withRequiredArg().ofType(Int::class.javaObjectType)
            .defaultsTo(DEFAULT_FORKS)
        private val precisionSpec = parser.accepts("precision").withRequiredArg()
        private val budgetSpec = parser.accepts("budget").withRequiredArg()
        private val modeSpec = parser.accepts("mode").withRequiredArg().defaultsTo("live")
        private val pairsSpec = parser.accepts("pairs").withRequiredArg().ofType(Int::class.javaObjectType)
            .defaultsTo(LivePlan().pairs)
        private val atOnceSpec = parser.accepts("at-once").withRequiredArg().ofType(Int::class.javaObjectType)
            .defaultsTo(LivePlan().atOnce)
        private val windowSpec = parser.accepts("window").withRequiredArg().defaultsTo("1s")
        private val warmupSpec = parser.accepts("warmup").withRequiredArg().defaultsTo("180s")
        private val resultsSpec = parser.accepts("results").withRequiredArg().defaultsTo("jmh-results")
        private val helpSpec = parser.acceptsAll(listOf("h", "help"))
        private val set = parser.parse(*args)

        val help: Boolean get() = set.has(helpSpec)

        /** --mode given: live or forks as it says, never a fork-by-fork fallback. */
        val modeGiven: Boolean get() = set.has(modeSpec)

        val live: Boolean
            get() = when (val mode = set.valueOf(modeSpec)) {
                "live" -> true
                "forks" -> false
                else -> throw Refused("--mode $mode: live (every side at once, interleaved windows) or forks")
            }
        val budget: String get() = set.valueOf(budgetSpec) ?: if (live) DEFAULT_LIVE_BUDGET else DEFAULT_BUDGET

        /** --pairs, --window, --warmup, --precision and --budget of a live run. */
        fun livePlan(forksAllowed: Boolean): LivePlan {
            if (!forksAllowed &&
                set.has(forksSpec)
            ) {
                throw Refused("--forks is for --mode forks; a live run has --pairs and --budget")
            }
            val pairs = set.valueOf(pairsSpec)
            if (pairs < 1) {
                throw Refused("--pairs $pairs: 1 or more server processes a side (default ${LivePlan().pairs})")
            }
            val atOnce = set.valueOf(atOnceSpec)
            if (atOnce < 1) {
                throw Refused("--at-once $atOnce: 1 or more pairs live at a time (default ${LivePlan().atOnce})")
            }
            val window = set.valueOf(windowSpec).let {
                ForkPlan.seconds(it)?.takeIf { s -> s > 0 } ?: throw Refused("--window $it: a duration such as 1s")
            }
            val warmup = set.valueOf(warmupSpec).let {
                ForkPlan.seconds(it) ?: throw Refused("--warmup $it: a duration such as 60s, or 0")
            }
            val precision = (set.valueOf(precisionSpec) ?: DEFAULT_LIVE_PRECISION).let {
                ForkPlan.fraction(it) ?: throw Refused("--precision $it: a per cent above 0 and below 100, such as 1%")
            }
            val budget = budget.let {
                ForkPlan.seconds(it)?.takeIf { s -> s > 0 } ?: throw Refused("--budget $it: a duration such as 9m")
            }
            return LivePlan(
                pairs = pairs,
                atOnce = atOnce,
                windowNanos = (window * 1e9).toLong(),
                warmupSeconds = warmup,
                precision = precision,
                budgetSeconds = budget,
            )
        }
        val results: File get() = File(set.valueOf(resultsSpec))

        /** The regex and the JMH options after it, which every fork of both sides gets. */
        fun common(): List<String> {
            val common = set.nonOptionArguments().map { it.toString() }
            if (common.isEmpty() || common.first().startsWith("-")) throw Refused("the benchmark regex is missing")
            common.firstOrNull { it in OWNED }?.let {
                throw Refused("$it: compare sets it for every fork itself" + if (it == "-f") "; use --forks N" else "")
            }
            return common
        }

        /** --forks, --precision and --budget. */
        fun plan(): ForkPlan {
            val forks = set.valueOf(forksSpec)
            if (!ForkOrder.allowed(forks)) {
                throw Refused(
                    "--forks $forks: must be even and ${ForkStatistics.minimumForks} or more " +
                        "(${ForkOrder.allowedList()}; default $DEFAULT_FORKS): fewer can never mark a row, an odd " +
                        "count cannot cancel a steady drift",
                )
            }
            val precision = (set.valueOf(precisionSpec) ?: DEFAULT_PRECISION).let {
                ForkPlan.fraction(it) ?: throw Refused("--precision $it: a per cent above 0 and below 100, such as 2%")
            }
            val budget = budget.let {
                ForkPlan.seconds(it)
                    ?: throw Refused("--budget $it: a duration such as 15m, 900s or 1h; 0 runs exactly --forks")
            }
            return ForkPlan(forks, precision, budget)
        }

        /** The [name] side: its jar and java (this jar's and this JVM's when not given) and its own arguments. */
        fun side(name: String): Configuration {
            val jar = File(set.valueOf(jars.getValue(name)) ?: ownJar())
            if (!jar.isFile) throw Refused("--$name-jar ${jar.path}: no such file")
            val given = set.valueOf(javas.getValue(name))
            val exe = if (given == null) {
                File(System.getProperty("java.home"), "bin/java").path
            } else {
                Configuration.java(given) ?: throw Refused(
                    "--$name-java $given: not a java executable (give .../bin/java or a JDK directory)",
                )
            }
            val serve = set.valueOf(serves.getValue(name))?.trim()?.split(Regex("\\s+"))?.filter { it.isNotEmpty() }
            serve?.let { ServedService.problem("--$name-serve", it) }?.let { throw Refused(it) }
            val label = set.valueOf(labels.getValue(name))?.trim()?.takeIf { it.isNotEmpty() }
            val config = Configuration(name, jar, exe, set.valueOf(sideArgs.getValue(name)), serve.orEmpty(), label)
            // The fork's target is its own service's: one named as well would be driven instead of it.
            if (serve != null && (config.jvmOptions + common()).any { it.startsWith("-D${RemoteTarget.TARGET}") }) {
                throw Refused(
                    "--$name-serve and -D${RemoteTarget.TARGET}: each fork of a serving side drives its own service",
                )
            }
            return config
        }

        private fun ownJar() = File(Compare::class.java.protectionDomain.codeSource.location.toURI()).path

        private companion object {
            val SIDES = listOf("base", "head")
        }
    }

    /** A -p in a side's --*-args takes one value, and is not given after the regex ([shared]) as well. */
    private fun refuseSideParams(base: Configuration, head: Configuration, shared: Map<String, List<String>>) {
        for (config in listOf(base, head)) {
            for ((name, values) in config.paramValues) {
                val given = "--${config.name}-args -p $name"
                // JMH runs every value, and rows leave the sides' parameters out: they would pool into one row.
                if (values.size > 1) {
                    throw Refused(
                        "$given=${values.joinToString(",")}: one value a side (several would pool into one row); " +
                            "run compare once per value",
                    )
                }
                if (name in shared) throw Refused("$given: also given after the regex; give it to each side only")
            }
        }
    }

    private fun compared(forks: List<Pair<ForkOrder.Side, File?>>, sideParams: Set<String>) = Comparison.of(
        forks.mapNotNull { (side, json) -> json?.let { side to Results.read(it) } },
        sideParams,
    )

    private fun throughput(c: Comparison) = c.rows.filter { it.metric == MetricCatalogue.THROUGHPUT }

    /** Runs [forks] under [plan], forecasting how long it takes first from measured figures, then from its own. */
    private fun measure(forks: Forks, plan: ForkPlan, sideParams: Set<String>): Forks.Measured? {
        val basis = "measured on 2026-11-25 for CpuBenchmark.direct netty at 5 × 5 s, docs/compare.md; per row, " +
            "so a run of several rows, or a slower machine, takes longer"
        return forks.run(
            plan,
            { done -> throughput(compared(done, sideParams)).map(ForkPlan::pooledDetectable) },
            { done, seconds ->
                val spread = ForkPlan.spread(throughput(compared(done, sideParams)))
                if (spread != null) {
                    val own = "from this run's first ${plan.firstForks} forks a side, the median of its rows"
                    err.println("compare: " + plan.forecast(spread, seconds / done.size, own))
                }
            },
            {
                err.println(
                    "compare: " + plan.forecast(ForkPlan.MEASURED_SPREAD, ForkPlan.MEASURED_SECONDS_PER_FORK, basis) +
                        "; said again from this run's own time after its first block, and from its own spread " +
                        "at the first look (${plan.firstForks} a side)",
                )
            },
        )
    }

    /** How the table was measured, for its heading: forks, time, why it stopped, and each fork's options. */
    private fun note(measured: Forks.Measured, plan: ForkPlan, budget: String, forkOptions: List<String>) =
        "${measured.forksASide} forks a side, alternating " +
            "(${ForkOrder.of(2).joinToString(" ") { it.name.lowercase() }} …), " +
            "in ${Math.round(measured.seconds / 60)} min; stopped adding forks: ${measured.stop.said} " +
            "(--precision ${ForkPlan.percent(plan.precision)}, --budget $budget, " +
            "first look at ${plan.firstForks} a side" +
            (if (measured.forksASide < plan.firstForks) ", not reached; " else "; ") +
            "the rule reads each row's forks pooled, blind to sides, " +
            "and simulated A/A runs under it were falsely marked at most " +
            "${ForkPlan.percent(ForkPlan.PROMISED_LEVEL)} of the time, docs/compare.md); each fork " +
            forkOptions.joinToString(" ")
}
