package serverbench.launcher

import org.openjdk.jmh.annotations.Mode
import org.openjdk.jmh.runner.BenchmarkList
import org.openjdk.jmh.runner.BenchmarkListEntry
import org.openjdk.jmh.runner.Defaults
import org.openjdk.jmh.runner.format.OutputFormatFactory
import org.openjdk.jmh.runner.options.Options
import org.openjdk.jmh.runner.options.TimeValue
import org.openjdk.jmh.runner.options.VerboseMode
import serverbench.benchmarks.CapacityRun
import serverbench.benchmarks.SteadyWarmup
import serverbench.params.Objective
import serverbench.params.ParamNames
import serverbench.params.RunName
import java.io.OutputStream
import java.io.PrintStream
import java.io.Serializable
import java.util.concurrent.TimeUnit

/**
 * The runs JMH would make for these options (every matching benchmark × benchmark mode × combination of parameter
 * values, expanded the way JMH's Runner does), which the launcher then filters and runs one at a time.
 */
object Plan {
    class Run(
        val benchmark: String,
        val mode: Mode,
        /** Parameter values, in the order JMH's benchmark list gives the benchmark's parameters. */
        val params: LinkedHashMap<String, String>,
        /**
         * Rough duration, for the progress line: forks × (steady warmup + JMH warmup + measurement + a server start).
         */
        val estimateSeconds: Long,
        val measurementIterations: Int = 0,
    ) : Serializable {
        val method: String get() = benchmark.substringAfterLast('.')
        val className: String get() = benchmark.substringBeforeLast('.')

        fun describe(): String = RunName.of(benchmark, params)

        fun with(name: String, value: String) = Run(
            benchmark,
            mode,
            LinkedHashMap(params).also {
                it[name] = value
            },
            estimateSeconds,
            measurementIterations,
        )

        /** Identity for de-duplication: the same benchmark with the same parameter values runs once. */
        val key: String get() = "$benchmark $mode $params"

        companion object {
            private const val serialVersionUID = 1L
        }
    }

    private fun silentOutput() =
        OutputFormatFactory.createFormatInstance(PrintStream(OutputStream.nullOutputStream()), VerboseMode.SILENT)

    private fun entries(options: Options): Set<BenchmarkListEntry> =
        BenchmarkList.defaultList().find(silentOutput(), options.includes, options.excludes)

    /** Every benchmark method in the jar, `serverbench.benchmarks.Class.method`. */
    fun allBenchmarks(): List<String> = BenchmarkList.defaultList().getAll(silentOutput(), emptyList()).map {
        it.username
    }.distinct().sorted()

    /** Parameter names the selected benchmarks declare. */
    fun declaredParams(options: Options): Set<String> =
        entries(options).flatMapTo(sortedSetOf()) { it.params.orElse(emptyMap()).keys }

    fun runs(options: Options): List<Run> {
        val entries = entries(options)
        val out = ArrayList<Run>()
        for (entry in entries) {
            // Main refuses every mode but throughput before planning, so there is nothing to expand.
            val modes = options.benchModes.ifEmpty { listOf(entry.mode) }
            var combos = listOf(LinkedHashMap<String, String>())
            for ((name, defaults) in entry.params.orElse(emptyMap())) {
                val values = options.getParameter(name).orElse(defaults.toList())
                combos = combos.flatMap { c -> values.map { v -> LinkedHashMap(c).also { it[name] = v } } }
            }
            val estimate = estimateSeconds(options, entry, entry.username.substringBeforeLast('.'))
            val iterations = options.measurementIterations.orElse(
                entry.measurementIterations.orElse(Defaults.MEASUREMENT_ITERATIONS),
            )
            val search = forks(options, entry) * searchSeconds()
            for (mode in modes) {
                combos.mapTo(out) { c ->
                    Run(entry.username, mode, c, estimate + if (searches(c)) search else 0, iterations)
                }
            }
        }
        return out
    }

    /** A capacity search's run (`-p objective`, [CapacityRun]). */
    private fun searches(params: Map<String, String>): Boolean =
        params[ParamNames.OBJECTIVE]?.let { runCatching { Objective.parse(it) }.getOrNull() } != null

    /**
     * The longest a capacity search takes: every step, each with its drain (the objective's limit twice, or a second;
     * a backlog of missed steps drains in about as long again).
     */
    fun searchSeconds(): Long {
        // A bad property is ParamCheck's one line, after planning: the defaults until then.
        val steps = runCatching { CapacityRun.maxSteps() }.getOrDefault(CapacityRun.DEFAULT_MAX_STEPS)
        val seconds = runCatching { CapacityRun.stepSeconds() }.getOrDefault(CapacityRun.DEFAULT_STEP_SECONDS)
        return steps * (seconds + SEARCH_DRAIN_SECONDS)
    }

    private const val SEARCH_DRAIN_SECONDS = 3L

    private fun forks(o: Options, e: BenchmarkListEntry): Int =
        o.forkCount.orElse(e.forks.orElse(Defaults.MEASUREMENT_FORKS)).coerceAtLeast(1) +
            o.warmupForkCount.orElse(e.warmupForks.orElse(Defaults.WARMUP_FORKS))

    private fun estimateSeconds(o: Options, e: BenchmarkListEntry, benchmarkClass: String): Long {
        val forks = forks(o, e)
        val warmup = o.warmupIterations.orElse(e.warmupIterations.orElse(Defaults.WARMUP_ITERATIONS)) *
            seconds(o.warmupTime.orElse(e.warmupTime.orElse(Defaults.WARMUP_TIME)))
        val measurement =
            o.measurementIterations.orElse(e.measurementIterations.orElse(Defaults.MEASUREMENT_ITERATIONS)) *
                seconds(o.measurementTime.orElse(e.measurementTime.orElse(Defaults.MEASUREMENT_TIME)))
        val steady = if (System.getProperty(SteadyWarmup.PROPERTY, "auto").trim() == "off") {
            0
        } else {
            minOf(STEADY_WARMUP_SECONDS, runCatching { SteadyWarmup.maxSeconds(benchmarkClass) }.getOrDefault(0))
        }
        return forks * (steady + warmup + measurement + SERVER_START_SECONDS)
    }

    private fun seconds(t: TimeValue): Long = t.convertTo(TimeUnit.MILLISECONDS).let { (it + 999) / 1000 }

    private const val SERVER_START_SECONDS = 3L

    /** The steady-state warmup's typical length here (docs/warmup.md); it ends between 5 s and its limit. */
    private const val STEADY_WARMUP_SECONDS = 30L
}
