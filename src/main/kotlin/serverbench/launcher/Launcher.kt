package serverbench.launcher

import org.openjdk.jmh.annotations.Mode
import org.openjdk.jmh.profile.ProfilerException
import org.openjdk.jmh.runner.Defaults
import org.openjdk.jmh.runner.Runner
import org.openjdk.jmh.runner.options.CommandLineOptionException
import org.openjdk.jmh.runner.options.CommandLineOptions
import org.openjdk.jmh.runner.options.Options
import org.openjdk.jmh.runner.options.OptionsBuilder
import serverbench.metrics.LoadMetricsProfiler
import serverbench.profile.FlameProfiler
import serverbench.profile.ProfileLayout
import java.io.File
import java.io.IOException
import java.util.Properties

object Launcher {
    /** JVM flags for forks: silence JDK 22+/24+ warnings about native access and sun.misc.Unsafe. */
    val COMPAT_JVM_ARGS = listOf(
        "-XX:+IgnoreUnrecognizedVMOptions",
        "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow",
    )
    const val SELF_CHECK = "SelfCheck"

    /** Exit status for bad input (nothing ran); 1 means a benchmark failed. */
    const val USAGE = 2

    /**
     * With this property true the launcher checks its command line as for a run and exits 0 without starting
     * anything: `scripts/compare` asks both sides before it starts either.
     */
    const val CHECK_ONLY = "serverbench.checkOnly"

    fun run(given: Array<String>): Int = try {
        launch(given)
    } catch (e: Exit) {
        e.status
    }

    /** Ends the launch early with [status]; what it had to say is printed already. */
    private class Exit(val status: Int) : RuntimeException(null, null, false, false)

    /** Prints [line] to stderr and ends the launch: bad input, nothing ran. */
    private fun usage(line: String): Nothing {
        System.err.println(line)
        throw Exit(USAGE)
    }

    private fun launch(given: Array<String>): Int {
        val args = withProfilerAliases(given)
        val cmd = try {
            CommandLineOptions(*args)
        } catch (e: CommandLineOptionException) {
            usage("Error parsing command line: ${e.message}")
        }
        if (listed(cmd)) return 0
        (unsupported(cmd) ?: ForkArchive.badProperty(System.getProperty(ForkArchive.PROPERTY)))?.let {
            usage("serverbench: $it")
        }
        val options = options(cmd, System.getProperties())
        val planned = plan(cmd, options)
        val flamegraphs = flamegraphs(cmd, planned)
        ParamCheck.check(ParamCheck.given(args), planned, Plan.declaredParams(options), flamegraphs != null)?.let {
            usage("serverbench: $it")
        }
        val applicable = Applicability.apply(planned, Applicability.forkJdk(options.jvm.orElse(null)))
        applicable.notices.forEach { System.out.println(it) }
        val runs = applicable.runs
        if (nothingToRun(runs)) return 0

        val resultFile = resultFile(cmd)
        val resultFormat = cmd.resultFormat.orElse(Defaults.RESULT_FORMAT)
        val profiling = flamegraphs?.let { profiling(it) }
        val runOptions = if (profiling == null) {
            options
        } else {
            options(
                CommandLineOptions(*withProfilerAliases(given, profiling.session, profiling.pid)),
                System.getProperties(),
            )
        }
        val sessionDir = profiling?.dir
        val verbosity = cmd.verbosity().orElse(Defaults.VERBOSITY)
        return Console.open(System.getProperty(Console.LOG_PROPERTY)).use { console ->
            profiling?.let {
                val attached = it.pid?.let { p -> ", profiled by attaching to the target's JVM (pid $p)" } ?: ""
                console.info("serverbench: flamegraphs of this session go to ${it.dir.path}/$attached")
            }
            Session(runs, runOptions, verbosity, resultFile, resultFormat, sessionDir).run(console)
        }
    }

    /** A profiled session: its name, its directory, and the target's pid the forks attach to (null: their own). */
    private class Profiling(val session: String, val dir: File, val pid: Long?)

    private fun profiling(flamegraphs: FlameProfiler): Profiling {
        // Each session profiles into a directory of its own, and the result file lists what each run wrote there: a
        // report must never show a graph of another run (an earlier one, or the baseline's) with this run's figures.
        val session = try {
            ProfileLayout.newSession(flamegraphs.dir)
        } catch (e: IOException) {
            usage("serverbench: -prof flame: ${e.message}; nothing was run")
        }
        // A target's JVM is profiled by attaching to it: the forks are told its pid, which only the launcher asks.
        val pid = try {
            flamegraphs.pid ?: TargetCheck.profiledPid()
        } catch (e: IllegalStateException) {
            usage("serverbench: -prof flame: ${e.message}; nothing was run")
        }
        return Profiling(session, File(flamegraphs.dir, session), pid.takeIf { flamegraphs.pid == null })
    }

    /** True when the launch ends here: only a check was asked (-D[CHECK_ONLY]), or no run applies. */
    private fun nothingToRun(runs: List<Plan.Run>): Boolean {
        // java.lang's, not kotlin.Boolean: true when the system property is "true".
        if (java.lang.Boolean.getBoolean(CHECK_ONLY)) return true
        if (runs.isEmpty()) println("serverbench: nothing left to run")
        return runs.isEmpty()
    }

    /** Help and the listings JMH's options ask for: true when one was printed (and nothing is to run). */
    private fun listed(cmd: CommandLineOptions): Boolean {
        val listing = Runner(cmd)
        when {
            cmd.shouldHelp() -> cmd.showHelp()
            cmd.shouldList() -> listing.list()
            cmd.shouldListWithParams() -> listing.listWithParams(cmd)
            cmd.shouldListProfilers() -> cmd.listProfilers()
            cmd.shouldListResultFormats() -> cmd.listResultFormats()
            else -> return false
        }
        return true
    }

    /** The runs [options] select; none is bad input, said with the benchmark names the patterns may have meant. */
    private fun plan(cmd: CommandLineOptions, options: Options): List<Plan.Run> {
        val planned = try {
            Plan.runs(options)
        } catch (e: RuntimeException) {
            usage("serverbench: cannot list the benchmarks: ${e.message}")
        }
        if (planned.isEmpty()) {
            val patterns = cmd.includes.joinToString(" ") { "'$it'" }
            val meant = suggestion(cmd.includes, Plan.allBenchmarks())
            usage(
                "No benchmark matches $patterns. Patterns are regular expressions matched anywhere in " +
                    "<package>.<Class>.<method>.$meant List them with: java -jar target/benchmarks.jar -l",
            )
        }
        ownBenchmarks(cmd.includes, Plan.allBenchmarks()).takeIf { it.isNotEmpty() }?.let {
            println(ownBenchmarksNotice(it))
        }
        return planned
    }

    /**
     * The first `-prof flame` of [cmd], or null. A bad profiler option must fail here, in one line, not inside JMH as
     * a reflection stack trace.
     */
    private fun flamegraphs(cmd: CommandLineOptions, planned: List<Plan.Run>): FlameProfiler? {
        var flamegraphs: FlameProfiler? = null
        for (p in cmd.profilers.filter { it.klass == FlameProfiler::class.java.name }) {
            val flame = try {
                FlameProfiler(p.opts)
            } catch (e: ProfilerException) {
                usage("serverbench: -prof ${e.message}")
            }
            flame.help?.let {
                println("-prof flame:<option>=<value>;...\n$it")
                throw Exit(0)
            }
            flame.unavailableReason()?.let { usage("serverbench: -prof $it") }
            planned.firstOrNull { flame.overhead && it.measurementIterations < 8 }?.let {
                val name = it.benchmark.removePrefix("serverbench.benchmarks.")
                usage(
                    "serverbench: -prof flame:overhead compares profiled and plain measurement iterations in blocks " +
                        "of 4 and needs at least 8 (-i 8 or more, a multiple of 4); $name has " +
                        "${it.measurementIterations}",
                )
            }
            if (flamegraphs == null) flamegraphs = flame
        }
        return flamegraphs
    }

    /** The result file -rf/-rff ask for, or null; one already there is moved aside first. */
    private fun resultFile(cmd: CommandLineOptions): String? {
        if (!cmd.result.hasValue() && !cmd.resultFormat.hasValue()) return null
        val extension = cmd.resultFormat.orElse(Defaults.RESULT_FORMAT).toString().lowercase()
        val resultFile = cmd.result.orElse("${Defaults.RESULT_FILE_PREFIX}.$extension")
        try {
            ResultFiles.keepPrevious(resultFile)?.let {
                println("serverbench: $resultFile already existed; its results were moved to $it")
            }
        } catch (e: IOException) {
            usage("serverbench: -rff $resultFile: cannot move the existing file aside ($e); nothing was run")
        }
        return resultFile
    }

    /** JMH options these benchmarks cannot honour, in one line, or null. */
    fun unsupported(cmd: CommandLineOptions): String? {
        val threads = cmd.threads.orElse(1)
        if (threads != 1) {
            return "-t $threads is not supported: one client thread drives each benchmark; " +
                "set the load with -p concurrency=N (connections) instead"
        }
        // Other modes time next() calls of the client, not requests: avgt's s/op would read as a latency.
        val mode = cmd.benchModes.firstOrNull { it != Mode.Throughput } ?: return null
        return "-bm ${mode.shortLabel()} is not supported: the score is successful requests/s (throughput); " +
            "latency is in latency.* (every request, HdrHistogram); only -bm thrpt"
    }

    /**
     * `-prof flame[:opts]` is serverbench's async-profiler flamegraphs ([FlameProfiler]); with a [session], the forks'
     * profiler is told it, so that it writes into this session's directory; with a [pid] (a target's), the JVM it
     * attaches to.
     */
    fun withProfilerAliases(args: Array<String>, session: String? = null, pid: Long? = null): Array<String> =
        Array(args.size) { i ->
            val a = args[i]
            val flame = FlameProfiler::class.java.name
            val named = if (a == "flame" || a.startsWith("flame:")) flame + a.removePrefix("flame") else a
            val profiler = i > 0 && args[i - 1] == "-prof"
            if (!profiler || (named != flame && !named.startsWith("$flame:"))) {
                a
            } else if (session == null) {
                named
            } else {
                "$named${if (named == flame) ":" else ";"}session=$session" + (pid?.let { ";pid=$it" } ?: "")
            }
        }

    /**
     * Whether a system property can change what a run measures, so that forks get it and a rerun must match it: every
     * `serverbench.*` one but the launcher's own internals and its log's path (scripts/bench names the log by the run's
     * start time).
     */
    fun shapesTheRun(name: String): Boolean =
        name.startsWith("serverbench.") && !name.startsWith("serverbench.internal.") && name != Console.LOG_PROPERTY

    fun options(cmd: Options, properties: Properties): Options {
        val builder = OptionsBuilder().parent(cmd)
        if (cmd.profilers.none { it.klass == LoadMetricsProfiler::class.java.name }) {
            builder.addProfiler(LoadMetricsProfiler::class.java)
        }
        val forwarded = properties.stringPropertyNames()
            .filter(::shapesTheRun)
            .sorted()
            .map { "-D$it=${properties.getProperty(it)}" }
        val user = cmd.jvmArgsAppend.orElse(emptyList())
        builder.jvmArgsAppend(*(COMPAT_JVM_ARGS + forwarded + user).toTypedArray())
        if (cmd.includes.none { it.contains(SELF_CHECK) }) builder.exclude(SELF_CHECK)
        if (ownBenchmarks(cmd.includes, Plan.allBenchmarks()).isNotEmpty()) builder.include(OWN_ONLY)
        return builder.build()
    }

    /** Matches every benchmark outside serverbench's own package. */
    private const val OWN_ONLY = "^(?!serverbench\\.)"

    /**
     * With no benchmark named, a project's own benchmarks (those outside serverbench's package) are the ones to run: a
     * team's jar also holds the built-in ones, whose runs no one asked for would take hours. Empty when the command
     * names some, or the jar holds only serverbench's (its own `target/benchmarks.jar`).
     */
    fun ownBenchmarks(includes: List<String>, all: List<String>): List<String> =
        if (includes.isNotEmpty()) emptyList() else all.filterNot { it.startsWith("serverbench.") }

    fun ownBenchmarksNotice(own: List<String>): String {
        val classes = own.map { it.substringBeforeLast('.').substringAfterLast('.') }.distinct()
        return "serverbench: no benchmark named: running this project's own (${classes.joinToString(", ")}); " +
            "serverbench's built-in benchmarks in this jar run when named (e.g. NoopBenchmark), -l lists them all"
    }

    /**
     * "Cpu.direct" is a natural guess for CpuBenchmark.direct, and "CpuBenchmark.dirct" a typo: name the benchmarks
     * meant instead of only "no match".
     */
    fun suggestion(includes: List<String>, benchmarks: Collection<String>): String {
        val names = benchmarks.map { it.removePrefix("serverbench.benchmarks.") }.filterNot { it.contains(SELF_CHECK) }
        val fixed = includes.map { p ->
            if (Regex("^\\w+Benchmark").containsMatchIn(p)) p else p.replace(Regex("^(\\w+)\\.(?!\\*)"), "$1Benchmark.")
        }
        if (fixed != includes && fixed.all { f -> names.any { Regex(f).containsMatchIn(it) } }) {
            return " Did you mean ${fixed.joinToString(" ") { "'$it'" }}?"
        }
        // A plain name with a typo: the benchmarks within a few edits of it, as Class.method or method.
        val close = includes.filter { Regex("^[\\w.]+$").matches(it) }.flatMap { p ->
            names.map { n ->
                n to minOf(
                    editDistance(p.lowercase(), n.lowercase()),
                    editDistance(p.lowercase(), n.substringAfter('.').lowercase()),
                )
            }
                .filter { it.second <= maxOf(2, p.length / 5) }.sortedBy { it.second }.map { it.first }
        }.distinct().take(3)
        return if (close.isEmpty()) "" else " Did you mean ${close.joinToString(" or ") { "'$it'" }}?"
    }

    private fun editDistance(a: String, b: String): Int {
        var prev = IntArray(b.length + 1) { it }
        for (i in 1..a.length) {
            val cur = IntArray(b.length + 1)
            cur[0] = i
            for (j in 1..b.length) {
                cur[j] = minOf(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + if (a[i - 1] == b[j - 1]) 0 else 1)
            }
            prev = cur
        }
        return prev[b.length]
    }
}
