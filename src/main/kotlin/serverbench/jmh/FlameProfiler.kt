package serverbench.jmh

import one.profiler.AsyncProfiler
import org.openjdk.jmh.infra.BenchmarkParams
import org.openjdk.jmh.infra.IterationParams
import org.openjdk.jmh.profile.InternalProfiler
import org.apache.commons.math3.distribution.TDistribution
import org.openjdk.jmh.results.AggregationPolicy
import org.openjdk.jmh.results.Aggregator
import org.openjdk.jmh.results.ResultRole
import org.openjdk.jmh.util.ListStatistics
import org.openjdk.jmh.results.IterationResult
import org.openjdk.jmh.results.Result
import org.openjdk.jmh.runner.IterationType
import serverbench.report.Flamegraphs
import java.io.File
import java.time.Instant

/**
 * `-prof flame[:event=cpu|wall|alloc|lock|ctimer|itimer|cpu-clock;interval=N;threads=server|all;dir=profiles;cstack=;overhead]`: async-profiler from its Maven
 * artifact (the native library is inside the jar: nothing to install, no libPath), run inside the fork over the
 * measurement iterations only, writing an HTML flamegraph per fork to
 * `profiles/<session>/<Class.method>/<param=value,...>/<event>[-pid<N>].html` with a `.txt` beside it recording the
 * event, the sampling engine, the sample count, the JDK and the parameters. `session` is the launcher's (its start
 * time, passed as `session=`), which then records in the result file which files each run made; without it (JMH run
 * some other way) the graphs go to `profiles/<Class.method>/...`.
 *
 * By default the load client's thread is left out (`exclude=*jmhTest*`: every stack of the JMH benchmark thread, which
 * is the client, passes through JMH's generated `_jmhTest` frame), so the graph shows the server's time only.
 * Default event: `wall` for benchmarks whose handlers wait (BlockingIo, Proxy, CompletableFuture, Delay), where CPU
 * samples would miss the waiting; `cpu` otherwise.
 *
 * `cpu` samples with async-profiler's ctimer engine on Linux, not with perf_events as async-profiler's own `cpu`
 * would: measured with `overhead` on CpuBenchmark.direct (netty, limit 1000, ~52 000 req/s), perf_events cost
 * 4.0 ± 1.2 % of throughput at the 10 ms interval and still 2.1 % at 100 ms (a tenth of the samples), so the price
 * is mostly perf_events being active on the threads, not the sampling; ctimer cost 0.7 ± 0.8 % with the same
 * user-space stacks (README has the table). What ctimer cannot give is kernel frames: `cpu-clock` asks for
 * perf_events explicitly.
 *
 * `overhead`: what profiling costs this benchmark, measured inside one fork. Comparing a profiled fork with a plain one
 * cannot resolve a 2 % cost here: whole forks differ by up to 15 % on this 2-core machine (JIT and host noise), while
 * iterations inside a fork differ by 1–2 %. So the measurement iterations alternate profiled and plain in ABBA blocks
 * of four (P U U P), which cancels a linear drift such as a JIT still improving, and `flame.overhead` is the mean over
 * blocks of 1 - (P1 + P2) / (U1 + U2), with a 95 % Student-t interval across blocks. What it cannot see is a cost that
 * stays after the first start (the library loaded, JVMTI hooks enabled): that shows only between forks.
 */
class FlameProfiler(initLine: String) : InternalProfiler {
    private val options: Map<String, String> = initLine.split(';', ',').filter { it.isNotBlank() }.associate {
        val kv = it.split('=', limit = 2)
        kv[0].trim() to (kv.getOrNull(1)?.trim() ?: "")
    }
    private var event: String? = options["event"]
    private val threads = options["threads"] ?: "server"
    /** Where the graphs go: [Flamegraphs.dir] of this, under the launcher's session when it gave one. */
    val dir = File(options["dir"] ?: "profiles")
    private val session: String? = options["session"]
    private var measured = 0
    private var running = false
    private var started = false
    val overhead: Boolean = options["overhead"].let { it != null && it != "false" }
    private val scores = ArrayList<Double>()

    init {
        // session: set by the launcher, not by users.
        val unknown = options.keys - setOf("event", "interval", "threads", "dir", "cstack", "overhead", "session")
        require(unknown.isEmpty()) { "flame: unknown option ${unknown.first()}; allowed: event, interval, threads, dir, cstack, overhead" }
        require(options["overhead"] in setOf(null, "", "true", "false")) { "flame: overhead takes no value (or true/false), was '${options["overhead"]}'" }
        require(event == null || event in EVENTS) { "flame: event must be one of ${EVENTS.joinToString(", ")}, was '$event'" }
        require(threads in setOf("server", "all")) { "flame: threads must be server or all, was '$threads'" }
    }

    /** Why the requested event cannot sample in this process, in one line, or null. */
    fun unavailableReason(): String? = event?.let { unavailable(it) }

    override fun getDescription() = "async-profiler flamegraphs of the server threads over the measurement iterations"

    override fun beforeIteration(benchmarkParams: BenchmarkParams, iterationParams: IterationParams) {
        if (iterationParams.type != IterationType.MEASUREMENT || running) return
        if (overhead && !profiledIteration(measured)) return
        val event = event ?: defaultEvent(benchmarkParams.benchmark).also { event = it }
        val command = buildString {
            // resume keeps the samples of the earlier profiled iterations; its options must be given again.
            append(if (started) "resume" else "start").append(",event=${profilerEvent(event)}")
            options["interval"]?.let { append(",interval=$it") }
            val cstack = options["cstack"] ?: if (event in CPU_EVENTS + "wall") "vm" else null
            cstack?.let { append(",cstack=$it") }
        }
        profiler().execute(command)
        running = true
        started = true
    }

    override fun afterIteration(benchmarkParams: BenchmarkParams, iterationParams: IterationParams, result: IterationResult): Collection<Result<*>> {
        if (iterationParams.type != IterationType.MEASUREMENT) return emptyList()
        if (overhead) scores += result.primaryResult.score
        if (++measured < iterationParams.count) {
            if (overhead && running) {
                profiler().execute("stop")
                running = false
            }
            return emptyList()
        }
        if (!started) return emptyList()
        val profiler = profiler()
        val samples = profiler.samples
        val cost = if (overhead) Overhead.of(scores) else null
        val params = benchmarkParams.paramsKeys.associateWith { benchmarkParams.getParam(it) }
        val out = Flamegraphs.dir(session?.let { File(dir, it) } ?: dir, benchmarkParams.benchmark, params)
        out.mkdirs()
        // One file per fork (named by its pid when there are several): JMH 1.37's own async profiler keeps only the last.
        val fork = if (benchmarkParams.forks > 1) "-pid${ProcessHandle.current().pid()}" else ""
        val html = File(out, "$event$fork.html")
        // async-profiler's command is comma-separated, and the directory name has commas: write beside, then move.
        val temp = File.createTempFile("serverbench-flame", ".html")
        // exclude is an output filter: it applies when the graph is written.
        val exclude = if (threads == "server") ",exclude=*jmhTest*" else ""
        // The same samples as collapsed stacks too: greppable, and what differential flamegraph tools take.
        val collapsed = File.createTempFile("serverbench-flame", ".collapsed")
        profiler.execute("dump,collapsed,file=${collapsed.absolutePath}$exclude")
        val weight = collapsed.useLines { lines -> lines.sumOf { it.substringAfterLast(' ').toLongOrNull() ?: 0L } }
        java.nio.file.Files.move(collapsed.toPath(), File(out, "$event$fork.collapsed").toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING)
        val title = Flamegraphs.htmlTitle(Flamegraphs.title(benchmarkParams.benchmark, params, event!!))
        profiler.execute("stop,file=${temp.absolutePath}$exclude,title=$title")
        java.nio.file.Files.move(temp.toPath(), html.toPath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING)
        running = false
        File(out, "$event$fork.txt").writeText(listOfNotNull(
            "benchmark: ${benchmarkParams.benchmark}",
            "params: ${benchmarkParams.paramsKeys.joinToString(", ") { "$it=${benchmarkParams.getParam(it)}" }}",
            "event: $event${options["interval"]?.let { " (interval $it)" } ?: ""}",
            "engine: ${engine(event!!)}",
            "threads: ${if (threads == "server") "server (load client excluded)" else "all"}",
            "samples: $samples (stack traces recorded, every thread)",
            // They differ beyond the client's share for wall: async-profiler records an idle thread's run of ticks once.
            "graph total: $weight (${if (threads == "server") "the load client left out; " else ""}" +
                "a wall sample of an idle thread counts each tick it stood for)",
            "measurement iterations: ${iterationParams.count} x ${iterationParams.time}" +
                if (overhead) " (profiled: the 1st and 4th of every 4)" else "",
            cost?.let { "overhead: ${it.describe()}" },
            "jdk: ${System.getProperty("java.vm.name")} ${Runtime.version()}",
            "async-profiler: ${profiler.version}",
            "written: ${Instant.now()}",
        ).joinToString("\n", postfix = "\n"))
        println("\nserverbench: flamegraph ${html.path} ($samples samples, $event)")
        if (cost == null) return emptyList()
        println("serverbench: profiling overhead ${cost.describe()}")
        return listOf(OverheadResult(cost.blockPercents))
    }

    /** Profiling's cost from measurement-iteration scores in ABBA order (see the class comment). */
    class Overhead(val blockPercents: DoubleArray, val halfWidth: Double, val profiled: Double, val plain: Double) {
        val percent: Double get() = blockPercents.average()
        val blocks: Int get() = blockPercents.size

        fun describe(): String = "%.1f %% %s(mean of %d ABBA blocks; profiled iterations %.0f, plain %.0f ops/s)".format(
            percent, if (halfWidth.isNaN()) "" else "± %.1f %% (95 %% CI) ".format(halfWidth), blocks, profiled, plain)

        companion object {
            fun of(scores: List<Double>): Overhead? {
                val blocks = scores.chunked(4).filter { it.size == 4 }
                    .map { (p1, u1, u2, p2) -> 100.0 * (1 - (p1 + p2) / (u1 + u2)) }
                if (blocks.isEmpty()) return null
                // JMH's getMeanErrorAt would give the same interval but none below 3 blocks; 2 blocks still get one here.
                val sd = ListStatistics(blocks.toDoubleArray()).standardDeviation
                val half = if (blocks.size < 2) Double.NaN
                else TDistribution((blocks.size - 1).toDouble()).inverseCumulativeProbability(0.975) * sd / kotlin.math.sqrt(blocks.size.toDouble())
                val used = scores.take(blocks.size * 4).withIndex()
                return Overhead(blocks.toDoubleArray(), half,
                    used.filter { profiledIteration(it.index) }.map { it.value }.average(),
                    used.filterNot { profiledIteration(it.index) }.map { it.value }.average())
            }
        }
    }

    companion object {
        /** ctimer, itimer and cpu-clock (perf_events) are cpu sampling with a named engine; `cpu` is ctimer on Linux. */
        val EVENTS = listOf("cpu", "wall", "alloc", "lock", "ctimer", "itimer", "cpu-clock")
        private val CPU_EVENTS = setOf("cpu", "ctimer", "itimer", "cpu-clock")
        private val linux = System.getProperty("os.name") == "Linux"

        /** What async-profiler is asked for: our `cpu` is its ctimer where ctimer exists (Linux), else its own `cpu`. */
        fun profilerEvent(event: String) = if (event == "cpu" && linux) "ctimer" else event

        /** A one-line reason why this event cannot sample in this process, or null. */
        fun unavailable(event: String): String? {
            if (event != "cpu-clock") return null
            if (!linux) return "flame: event=cpu-clock needs Linux perf_events; use event=cpu"
            val paranoid = perfEventParanoid()
            return if (paranoid != null && paranoid > 2 && !perfCapable())
                "flame: event=cpu-clock needs perf_events, which perf_event_paranoid=$paranoid forbids to this process " +
                    "(allow it with: sudo sysctl kernel.perf_event_paranoid=2); event=cpu samples without them"
            else null
        }
        private val WAITING = listOf("BlockingIo", "Proxy", "CompletableFuture", "Delay")

        /** ABBA: the 1st and 4th measurement iteration of every four are profiled. */
        fun profiledIteration(index: Int) = index % 4 == 0 || index % 4 == 3

        fun defaultEvent(benchmark: String) = if (WAITING.any { benchmark.contains(".${it}Benchmark.") }) "wall" else "cpu"

        private fun profiler(): AsyncProfiler = AsyncProfiler.getInstance()

        private fun perfEventParanoid(): Int? =
            runCatching { File("/proc/sys/kernel/perf_event_paranoid").readText().trim().toInt() }.getOrNull()

        /** CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set: the kernel then ignores perf_event_paranoid. */
        private fun perfCapable(): Boolean {
            val hex = runCatching { File("/proc/self/status").readLines().first { it.startsWith("CapEff:") }.substringAfter(':').trim() }
                .getOrNull() ?: return false
            val caps = hex.toULongOrNull(16) ?: return false
            return (caps shr 21) and 1uL == 1uL || (caps shr 38) and 1uL == 1uL
        }

        /**
         * The sampling engine behind an event. async-profiler does not report it; `cpu-clock` is perf_events or an error
         * at start, and the inference below applies the kernel's rule (capabilities, then perf_event_paranoid) to say
         * which frames it can see.
         */
        fun engine(event: String): String = when (event) {
            "cpu" -> if (linux) "ctimer (serverbench's cpu on Linux: per-thread CPU-time timers, user-space stacks; " +
                "event=cpu-clock for perf_events)" else "itimer (async-profiler's cpu on ${System.getProperty("os.name")})"
            "cpu-clock" -> {
                val paranoid = perfEventParanoid()
                when {
                    perfCapable() -> "perf_events (this process has CAP_PERFMON or CAP_SYS_ADMIN: kernel frames allowed)"
                    paranoid != null && paranoid <= 1 -> "perf_events (perf_event_paranoid=$paranoid: kernel frames allowed)"
                    else -> "perf_events (perf_event_paranoid=$paranoid: user-space stacks only)"
                }
            }
            "ctimer" -> "ctimer (chosen: per-thread CPU-time timers, signals)"
            "itimer" -> "itimer (chosen: one process-wide setitimer, signals)"
            "wall" -> "wall-clock timer (all threads, running or waiting)"
            "alloc" -> "TLAB allocation callbacks"
            else -> "JVM lock contention events"
        }
    }
}

/**
 * `flame.overhead` in %: the per-block estimates of one or more forks, pooled. Reported once, at a fork's last
 * iteration; unlike a ScalarResult it has no zero result, so JMH does not pad the other iterations with 0 % (which
 * would divide the figure by the iteration count). JMH's ± is its usual 99.9 % interval over the blocks.
 */
class OverheadResult(private val blocks: DoubleArray) :
    Result<OverheadResult>(ResultRole.SECONDARY, "flame.overhead", ListStatistics(blocks), "%", AggregationPolicy.AVG) {

    override fun getThreadAggregator(): Aggregator<OverheadResult> = POOL

    override fun getIterationAggregator(): Aggregator<OverheadResult> = POOL

    companion object {
        private const val serialVersionUID = 1L
        private val POOL = Aggregator<OverheadResult> { results -> OverheadResult(results.flatMap { it.blocks.asIterable() }.toDoubleArray()) }
    }
}
