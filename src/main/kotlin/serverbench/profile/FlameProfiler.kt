package serverbench.profile

import org.openjdk.jmh.infra.BenchmarkParams
import org.openjdk.jmh.infra.IterationParams
import org.openjdk.jmh.profile.InternalProfiler
import org.openjdk.jmh.results.IterationResult
import org.openjdk.jmh.results.Result
import org.openjdk.jmh.runner.IterationType
import java.io.File
import java.nio.file.Files
import java.nio.file.StandardCopyOption.REPLACE_EXISTING
import java.time.Instant

/**
 * `-prof flame[:event=cpu|wall|…;interval=N;threads=server|all;dir=profiles;cstack=…;overhead]` ([FlameOptions];
 * `flame:help` lists them): async-profiler from its Maven artifact (the native library is inside the jar: nothing to
 * install, no libPath), run inside the fork over the measurement iterations only, writing an HTML flamegraph per fork
 * to
 * `profiles/<session>/<Class.method>/<param=value,...>/<event>[-pid<N>].html` with a `.txt` beside it recording the
 * event, the sampling engine, the sample count, the JDK and the parameters. `session` is the launcher's (its start
 * time, passed as `session=`), which then records in the result file which files each run made; without it (JMH run
 * some other way) the graphs go to `profiles/<Class.method>/...`.
 *
 * By default the load client's threads are left out (`exclude=*jmhTest*`: every stack of the JMH benchmark thread,
 * which is the client, passes through JMH's generated `_jmhTest` frame; `exclude=*ClientWorker*`: the other client
 * threads'), so the graph shows the server's time only.
 * Default event: `wall` for benchmarks whose handlers wait (BlockingIo, Proxy, CompletableFuture, Delay), where CPU
 * samples would miss the waiting; `cpu` otherwise.
 *
 * `cpu` samples with async-profiler's ctimer engine on Linux, not with perf_events as async-profiler's own `cpu`
 * would: measured with `overhead`, perf_events cost several times what ctimer costs, at any interval, so the price is
 * perf_events being active on the threads, not the sampling (docs/flamegraphs.md has the table). What ctimer cannot
 * give is kernel frames: `cpu-clock` asks for perf_events explicitly.
 *
 * `overhead`: what profiling costs this benchmark, measured inside one fork. Comparing a profiled fork with a plain one
 * cannot resolve a cost of a few percent: whole forks differ far more than iterations inside one fork do
 * (docs/flamegraphs.md). So the measurement iterations alternate profiled and plain in ABBA blocks of four
 * (P U U P), which cancels a linear drift such as a JIT still improving, and `flame.overhead` is the mean over
 * blocks of 1 - (P1 + P2) / (U1 + U2), with a 95 % Student-t interval across blocks. What it cannot see is a cost that
 * stays after the first start (the library loaded, JVMTI hooks enabled): that shows only between forks.
 *
 * `pid=N` (the launcher's, with a `-Dserverbench.target` that `scripts/serve` started here): the same commands go to
 * that JVM instead, through the Attach API ([AttachedProfiler]), so the graph shows the target's threads, and the
 * same files are written where they would be for a server in the fork.
 */
class FlameProfiler(initLine: String) : InternalProfiler {
    private val options = FlameOptions(initLine)
    private var event: String? = options.event
    private val threads = options.threads

    // Not in the launcher, which builds this only to check the options: attaching is the fork's.
    private val sampler: Sampler by lazy { options.pid?.let { AttachedProfiler(it) } ?: Sampler.InProcess }

    /** The target's pid the launcher passed (`pid=N`): its JVM is profiled, not this one. */
    val pid: Long? = options.pid

    /** `flame:help`: the options, for the launcher to print instead of running. */
    val help: String? = options.help

    /** Where the graphs go: [ProfileLayout.dir] of this, under the launcher's session when it gave one. */
    val dir = options.dir
    private val session: String? = options.session
    private var measured = 0
    private var running = false
    private var started = false
    val overhead: Boolean = options.overhead
    private val scores = ArrayList<Double>()

    /** Why the requested event cannot sample in this process, in one line, or null. */
    fun unavailableReason(): String? = event?.let { SamplingEngines.unavailable(it) }

    override fun getDescription() = "async-profiler flamegraphs of the server threads over the measurement iterations"

    override fun beforeIteration(benchmarkParams: BenchmarkParams, iterationParams: IterationParams) {
        if (iterationParams.type != IterationType.MEASUREMENT || running) return
        if (overhead && !Overhead.profiledIteration(measured)) return
        val event = event ?: defaultEvent(benchmarkParams.benchmark).also { event = it }
        // resume keeps the samples of the earlier profiled iterations; its options must be given again.
        sampler.execute((if (started) "resume" else "start") + options.sampling(event))
        running = true
        started = true
    }

    override fun afterIteration(
        benchmarkParams: BenchmarkParams,
        iterationParams: IterationParams,
        result: IterationResult,
    ): Collection<Result<*>> {
        if (iterationParams.type != IterationType.MEASUREMENT) return emptyList()
        if (overhead) scores += result.primaryResult.score
        if (++measured < iterationParams.count) {
            if (overhead && running) {
                sampler.execute("stop")
                running = false
            }
            return emptyList()
        }
        if (!started) return emptyList()
        val cost = if (overhead) Overhead.of(scores) else null
        writeGraph(benchmarkParams, iterationParams, cost)
        if (cost == null) return emptyList()
        println("serverbench: profiling overhead ${cost.describe()}")
        return listOf(OverheadResult(cost.blockPercents))
    }

    /** This run's graph, as HTML and as collapsed stacks, and a text file that says how it was made. */
    private fun writeGraph(benchmarkParams: BenchmarkParams, iterationParams: IterationParams, cost: Overhead?) {
        val profiler = sampler
        val samples = profiler.samples
        val params = benchmarkParams.paramsKeys.associateWith { benchmarkParams.getParam(it) }
        val out = ProfileLayout.dir(session?.let { File(dir, it) } ?: dir, benchmarkParams.benchmark, params)
        out.mkdirs()
        // One file per fork (named by its pid when there are several): JMH 1.37's own async profiler keeps only the
        // last.
        val fork = if (benchmarkParams.forks > 1) "-pid${ProcessHandle.current().pid()}" else ""
        val html = File(out, "$event$fork.html")
        // async-profiler's command is comma-separated, and the directory name has commas: write beside, then move.
        val temp = File.createTempFile("serverbench-flame", ".html")
        // exclude is an output filter: it applies when the graph is written.
        // The benchmark thread's stacks pass through JMH's _jmhTest frame, the other client threads' through
        // ClientWorker.run (-p clientThreads). A target's process has no client threads to leave out.
        val exclude = if (threads == "server" && pid == null) ",exclude=*jmhTest*,exclude=*ClientWorker*" else ""
        // The same samples as collapsed stacks too: greppable, and what differential flamegraph tools take.
        val collapsed = File.createTempFile("serverbench-flame", ".collapsed")
        profiler.execute("dump,collapsed,file=${collapsed.absolutePath}$exclude")
        val weight = collapsed.useLines { lines -> lines.sumOf { it.substringAfterLast(' ').toLongOrNull() ?: 0L } }
        Files.move(collapsed.toPath(), File(out, "$event$fork.collapsed").toPath(), REPLACE_EXISTING)
        val title = ProfileLayout.htmlTitle(ProfileLayout.title(benchmarkParams.benchmark, params, event!!))
        profiler.execute("stop,file=${temp.absolutePath}$exclude,title=$title")
        Files.move(temp.toPath(), html.toPath(), REPLACE_EXISTING)
        running = false
        File(out, "$event$fork.txt").writeText(notes(benchmarkParams, iterationParams, samples, weight, cost))
        println("\nserverbench: flamegraph ${html.path} ($samples samples, $event)")
    }

    /** The graph's text file: what was profiled, how, and what the graph's total counts. */
    private fun notes(
        benchmarkParams: BenchmarkParams,
        iterationParams: IterationParams,
        samples: Long,
        weight: Long,
        cost: Overhead?,
    ): String = listOfNotNull(
        "benchmark: ${benchmarkParams.benchmark}",
        "params: ${benchmarkParams.paramsKeys.joinToString(", ") { "$it=${benchmarkParams.getParam(it)}" }}",
        "event: $event${options.interval?.let { " (interval $it)" } ?: ""}",
        "engine: ${SamplingEngines.engine(event!!)}",
        "threads: ${sampler.profiled ?: if (threads == "server") "server (load client excluded)" else "all"}",
        "samples: $samples (stack traces recorded, every thread)",
        // They differ beyond the client's share for wall: async-profiler records an idle thread's run of ticks
        // once.
        "graph total: $weight (${if (threads == "server" && pid == null) "the load client left out; " else ""}" +
            "a wall sample of an idle thread counts each tick it stood for)",
        "measurement iterations: ${iterationParams.count} x ${iterationParams.time}" +
            if (overhead) " (profiled: the 1st and 4th of every 4)" else "",
        cost?.let { "overhead: ${it.describe()}" },
        "jdk: ${sampler.jdk}",
        "async-profiler: ${sampler.version}",
        "written: ${Instant.now()}",
    ).joinToString("\n", postfix = "\n")

    companion object {
        private val WAITING = listOf("BlockingIo", "Proxy", "CompletableFuture", "Delay")

        fun defaultEvent(benchmark: String): String {
            val waits = WAITING.any { benchmark.contains(".${it}Benchmark.") }
            return if (waits) "wall" else "cpu"
        }
    }
}
