package serverbench.benchmarks

import org.openjdk.jmh.annotations.BenchmarkMode
import org.openjdk.jmh.annotations.Fork
import org.openjdk.jmh.annotations.Level
import org.openjdk.jmh.annotations.Measurement
import org.openjdk.jmh.annotations.Mode
import org.openjdk.jmh.annotations.OutputTimeUnit
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.Setup
import org.openjdk.jmh.annotations.State
import org.openjdk.jmh.annotations.TearDown
import org.openjdk.jmh.annotations.Threads
import org.openjdk.jmh.annotations.Warmup
import org.openjdk.jmh.infra.BenchmarkParams
import org.openjdk.jmh.infra.IterationParams
import serverbench.client.ClientSettings
import serverbench.client.FileDescriptors
import serverbench.client.LoadGroup
import serverbench.client.LoadSplit
import serverbench.client.Request
import serverbench.client.RequestMix
import serverbench.fixture.CpuPlacement
import serverbench.fixture.ForkGuard
import serverbench.fixture.RemoteTarget
import serverbench.fixture.ServerKind
import serverbench.metrics.BudgetReport
import serverbench.metrics.CapacitySearch
import serverbench.metrics.ClientReports
import serverbench.metrics.Figure
import serverbench.metrics.IterationReport
import serverbench.metrics.LatencyLog
import serverbench.metrics.ResourceReport
import serverbench.params.ClientThreadsParam
import serverbench.params.CpuParams
import serverbench.params.Knobs
import serverbench.params.Objective
import serverbench.params.ParamValues
import serverbench.params.RunName
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * Base of every HTTP benchmark: a real server in this JVM (or one that already runs, `-Dserverbench.target`; see
 * [ServerUnderTest]), driven over real sockets by the load client, closed loop or open loop (`-p rate`).
 *
 * One operation = one successful, validated HTTP request, so the JMH score (ops/s) is successful requests per second.
 * Failed requests never count; any failure beyond the tolerance fails the benchmark (see [LoadClient]).
 *
 * Per trial: start the server (`-p server`), check one request, open `-p concurrency` connections; per iteration:
 * reset the client's counters and publish them for [serverbench.metrics.LoadMetricsProfiler]. The `@Benchmark`
 * method's name is the variant: a family says once, in [request], its path and body; each method body is [call].
 *
 * Defaults, chosen for a 2-core machine where client and server share the cores (and the JIT compiler threads):
 * - Warmup until steady ([SteadyWarmup], in the trial's setup), not a fixed count of JMH warmup iterations: how long
 *   the server's hot paths take to compile differs by benchmark several-fold (docs/warmup.md). `-wi N` adds JMH
 *   warmup iterations after it; `-Dserverbench.warmup=off` leaves warming up to them alone.
 * - 5 × 5 s measurement, 1 fork (each costs a server start and its warmup); comparisons: `scripts/compare`.
 * - Fixed 2 GB heap and G1, so heap sizing never differs between runs; override with `-jvmArgs`.
 * - `@Threads(1)`: JMH's thread drives the load; `-p clientThreads` (default `auto`: 1 below 8 processors) spreads
 *   it over more client threads, each its own event loop ([LoadGroup]); load is set by `-p concurrency`.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(value = 1, jvmArgs = ["-Xms2g", "-Xmx2g", "-XX:+UseG1GC"])
@Warmup(iterations = 0, time = 5, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 5, timeUnit = TimeUnit.SECONDS)
abstract class HttpBenchmark : ProtocolParams() {

    /**
     * The stack under test: `tomcat` or `jetty` (Spring MVC) or `netty` (Spring WebFlux). Jetty is opt-in
     * (`-p server=jetty`): the default runs the two stacks the quick suite's time allows.
     */
    @Param("netty", "tomcat")
    var server: String = ""

    /**
     * Closed loop (rate 0): connections, each with one request in flight, like `wrk -c`. Open loop: the most
     * connections the client may open to keep to the schedule.
     */
    @Param("64")
    var concurrency: Int = 0

    /**
     * Requests per second on a fixed schedule (open loop, like `wrk2 -R`), whatever the server does; 0 = closed loop.
     * Open-loop latency (`latency.*`) runs from each request's scheduled send, so a stall shows in every request due
     * during it; `latency.uncorrected.*` runs from the actual send.
     */
    @Param("0")
    var rate: Int = 0

    /**
     * `none`, or a latency objective (`p99:100ms`) that makes the run a capacity search: the highest open-loop rate
     * whose latency percentile stays within it with no errors ([CapacityRun]; docs/capacity.md). The measured
     * iterations then run at the rate found.
     */
    @Param(Objective.NONE)
    var objective: String = Objective.NONE

    /**
     * The server side's CPU budget: `unlimited`, or CPUs of CFS quota (`0.5`, `1`, ...) as `docker --cpus` applies;
     * the load client stays outside it ([CpuBudget]; docs/cpu-budget.md).
     */
    @Param(CpuParams.UNLIMITED)
    var cpus: String = CpuParams.UNLIMITED

    /** Cores the server side is pinned to (`1`, `0-1`), the client to the others, as `--cpuset-cpus`; `none`. */
    @Param(CpuParams.NONE)
    var cpuset: String = CpuParams.NONE

    /**
     * Threads of the load client, each its own event loop with its share of the connections (and of the rate):
     * `auto` (one per 4 processors the server may use, at least 1; docs/scaling-the-load.md) or a count.
     */
    @Param(ClientThreadsParam.AUTO)
    var clientThreads: String = ClientThreadsParam.AUTO

    /** The benchmark method being run (set when the trial starts). */
    protected var variant: String = ""

    /** What it sends (set when the trial starts). */
    private var mix: RequestMix? = null

    private var sut: ServerUnderTest? = null
    private var ownDatabase: OwnDatabase? = null
    private var client: LoadGroup? = null
    private val measured = MeasuredIterations()
    private var latencyLog: LatencyLog? = null
    private var warmupSeconds = -1.0

    /** The capacity search's outcome (`-p objective`), published on the last measured iteration; null: none. */
    private var capacity: CapacitySearch.Outcome? = null

    /** The warmup's light load ([SteadyWarmup.Light]): requests no window counted; null if it had none. */
    private var light: SteadyWarmup.Light? = null
    protected val warmupLight: SteadyWarmup.Light? get() = light

    /** How the trial warms up; read in the setup so a bad property fails the run before the server starts. */
    private var warmup: SteadyWarmup? = null

    /** "NoopBenchmark.hello (server=netty, ...)": names the run in its warning lines. */
    private var runName = ""

    /**
     * The request that the benchmark method named [variant] sends, and the body it must get back. A name with no
     * endpoint fails the trial's first request (a 404), before any measurement.
     */
    abstract fun request(variant: String): Request

    /**
     * What the benchmark method named [variant] sends: [request] alone, or a weighted mix of requests (a `.http`
     * workload, [HttpFileBenchmark]), each checked against its own expectation.
     */
    open fun requests(variant: String): RequestMix = RequestMix.of(request(variant))

    /** Client settings; the self-check benchmarks shorten the timeout. */
    protected open fun clientSettings(): ClientSettings = ClientSettings.fromSystemProperties()

    /** File descriptors each client connection costs in this JVM: both ends; a proxy adds its way to the stub. */
    open val descriptorsPerConnection: Int = 2

    /** Why this family needs its server in this JVM (`-Dserverbench.target` is refused saying so); null: none. */
    open val inProcessOnly: String? = null

    /** Spring properties for the server under test (server knobs, pool sizes), on top of the fixture's defaults. */
    protected open fun serverProperties(): Map<String, Any> = emptyMap()

    /**
     * [serverProperties] for a server of this benchmark in a process of its own (a live comparison's, which starts
     * `scripts/serve` with them as `-D` options), with this instance's parameters.
     */
    fun ownProcessProperties(): Map<String, Any> = serverProperties()

    /** Starts what the server depends on (the proxy family's downstream stub); returns properties that point to it. */
    protected open fun startDependencies(): Map<String, Any> = emptyMap()

    protected open fun stopDependencies() {}

    /** Called after the client's iteration starts and before it ends; a failed check throws [LoadFailure]. */
    protected open fun iterationStarted(client: LoadGroup) {}

    protected open fun iterationEnded(client: LoadGroup, lastMeasurement: Boolean) {}

    /** A family's own figures for the iteration that just ended, published with the client's. */
    protected open fun iterationFigures(): List<Figure> = emptyList()

    @Setup(Level.Trial)
    fun startServerAndClient(params: BenchmarkParams) {
        ForkStart.setup()
        ForkGuard.installInFork()
        try {
            // -p server=other labels a target of another kind; a stack in this JVM is one of the three.
            val kind = if (server == ParamValues.OTHER) null else ServerKind.of(server)
            val objective = checkLoad()
            val values = RunName.values(params)
            val h2Streams = H2Params.streams(values)
            FileDescriptors.require(concurrency / maxOf(1, h2Streams), descriptorsPerConnection)
            val askedThreads = ClientThreadsParam.count(clientThreads)
            variant = params.benchmark.substringAfterLast('.')
            val request = requests(variant).also { mix = it }
            val secure = TlsParams.enabled(tls)
            val provider = kind?.let { TlsParams.provider(it, secure, sslProvider) }
            warmup = SteadyWarmup.fromSystemProperties(javaClass.simpleName.substringBefore('_'))
            val started = System.nanoTime()
            val sut = startServer(kind, values, provider, h2Streams > 0).also { this.sut = it }
            val settings = ConnectionParams.settings(
                sut.clientSettings(clientSettings().copy(http2Streams = h2Streams)),
                requestsPerConnection,
            )
            val session = sut.verify(request, settings)
            val cores = Runtime.getRuntime().availableProcessors()
            val threads = askedThreads
                ?: if (sut.remote) LoadSplit.autoRemote(sut.processors, cores) else LoadSplit.auto(cores)
            val ready = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)
            ForkStart.ready()
            val client = LoadGroup(sut.address, concurrency, request, settings, rate.toDouble(), threads, sut.remote)
            this.client = client
            client.start()
            measured.clear()
            latencyLog = LatencyLog.of(params)
            runName = RunName.of(params)
            val load = TrialLines.load(client, clientThreads, secure) + ConnectionParams.describe(settings)
            println(
                "\nserverbench: ${sut.describe()}, first validated response at $ready ms" +
                    "${TlsParams.describe(session, provider.takeIf { !sut.remote })}; ${ForkStart.describe()}; " +
                    "$load -> $request",
            )
            client.split.reduction?.let { println("serverbench: $it") }
            val closedLoopRate = warmUp(client, sut, request, settings)
            if (objective != null) {
                val open = { r: Double ->
                    LoadGroup(sut.address, concurrency, request, settings, r, threads, sut.remote).also { it.start() }
                }
                searchCapacity(objective, client, closedLoopRate, open, params)
            }
        } catch (t: Throwable) {
            // JMH runs no @TearDown once a @Setup has thrown: stop what was started, or the fork waits on it.
            stopClientAndServer()
            throw t
        }
    }

    /** The load's parameters checked; the latency objective of a capacity search, or null. */
    private fun checkLoad(): Objective? {
        require(concurrency >= 1) { "concurrency must be >= 1, was $concurrency" }
        require(rate >= 0) { "rate must be >= 0 requests/s (0 = closed loop), was $rate" }
        val objective = Objective.parse(objective)
        require(objective == null || rate == 0) { "a capacity search (-p objective) sets the rate: leave -p rate at 0" }
        return objective
    }

    /** The server under test: started in this JVM, or the one `-Dserverbench.target` names. */
    private fun startServer(
        kind: ServerKind?,
        values: Map<String, String>,
        provider: String?,
        http2: Boolean,
    ): ServerUnderTest {
        val secure = TlsParams.enabled(tls)
        val target = RemoteTarget.fromSystemProperties()
        val sources = OwnCode.sources(javaClass)
        if (target == null) {
            requireNotNull(kind) {
                "-p server=$server labels a server that runs elsewhere: only with -D${RemoteTarget.TARGET}=host:port"
            }
            return InProcessServer.start(
                kind,
                CpuPlacement.of(cpus, cpuset, clientCpus = CpuParams.clientCpus()),
                secure,
                sources,
            ) {
                val database = OwnDatabase.startFor(javaClass)?.also { ownDatabase = it }?.properties().orEmpty()
                serverProperties() + database + startDependencies() + TlsParams.properties(provider) +
                    H2Params.properties(http2)
            }
        }
        val name = javaClass.simpleName.substringBefore('_')
        val props = serverProperties() + TlsParams.properties(provider.takeIf { sslProvider != Knobs.DEFAULT })
        val own = sources.takeIf { it.own }?.let { "the user's code (${it.describe()}) starts only in this JVM" }
            ?: "its PostgreSQL (@EmbeddedPostgres) starts only in this JVM".takeIf {
                OwnCode.embeddedPostgres(javaClass)
            }
        TargetServer.requireRemoteable(values, name, inProcessOnly ?: own, props)
        target.https?.let { https ->
            require(https == secure) {
                "-D${RemoteTarget.TARGET} names an ${if (https) "https" else "http"}:// server, and -p tls=$tls " +
                    "speaks ${if (secure) "TLS" else "plain HTTP"}: make them agree"
            }
        }
        return TargetServer.connect(target, server, secure)
    }

    /**
     * The steady warmup (when -Dserverbench.warmup asks one), with its light load; [warmupSeconds] says how long.
     * Returns its last window's req/s, or null without one.
     */
    private fun warmUp(
        client: LoadGroup,
        sut: ServerUnderTest,
        request: RequestMix,
        settings: ClientSettings,
    ): Double? {
        warmupSeconds = -1.0
        this.light = null
        val w = (warmup ?: return null).let { w -> sut.jit?.let(w::judging) ?: w }
        val light = SteadyWarmup.Light.of(concurrency, sut.address, request, settings, sut.remote)
        this.light = light
        val outcome = w.run(client, light, { iterationStarted(client) }, { iterationEnded(client, false) })
        warmupSeconds = outcome.seconds
        println("serverbench: ${outcome.describe()}")
        return outcome.figures.lastOrNull()
    }

    /**
     * `-p objective`: the trial's closed-loop group makes way for the search's steps, each on a group of its own
     * ([open]); JMH's iterations then run on one more, at the rate found (or the lowest tried, when none met it).
     */
    private fun searchCapacity(
        objective: Objective,
        closedLoop: LoadGroup,
        closedLoopRate: Double?,
        open: (Double) -> LoadGroup,
        params: BenchmarkParams,
    ) {
        val start = (closedLoopRate ?: CapacityRun.closedLoopRate(closedLoop)) / CapacityRun.START_DIVISOR
        closedLoop.drain()
        closedLoop.close()
        client = null
        val sut = sut!!
        val meter = object : OpenLoopStep.StepMeter {
            override fun begin(group: LoadGroup) {
                sut.beginIteration()
                iterationStarted(group)
                sut.resources.begin()
            }

            override fun end(group: LoadGroup): Pair<ResourceReport?, BudgetReport?> {
                val resources = sut.resources.end()
                val budget = sut.endIteration()
                iterationEnded(group, false)
                return resources to budget
            }
        }
        val run = CapacityRun(objective, meter, open)
        val outcome = run.search(start, params.benchmark, RunName.values(params))
        capacity = outcome
        val measureAt = outcome.low ?: outcome.steps.minOf { it.rate }
        val which = if (outcome.low != null) "the highest that met the objective" else "the lowest tried"
        println("serverbench: the measured iterations run at ${CapacitySearch.rateText(measureAt)} req/s, $which")
        client = open(measureAt)
    }

    @Setup(Level.Iteration)
    fun beginIteration(iteration: IterationParams) = guarded {
        val client = client!!
        val sut = sut!!
        sut.beginIteration()
        // JMH's iteration window: see LoadClient.next for why the client must know it.
        client.beginIteration(Duration.ofNanos(iteration.time.convertTo(TimeUnit.NANOSECONDS)))
        iterationStarted(client)
        sut.resources.begin()
    }

    @TearDown(Level.Iteration)
    fun endIteration(iteration: IterationParams) = guarded {
        val client = client!!
        val sut = sut!!
        val resources = sut.resources.end()
        val budget = sut.endIteration()
        val report = client.endIteration()
        latencyLog?.interval(iteration, report)
        val last = measured.ended(iteration, report)
        iterationEnded(client, last)
        val iterationReport = IterationReport(
            report,
            resources,
            warmupSeconds,
            lastMeasurement = last,
            steadiness = measured.steadiness(last),
            budget = budget,
            extra = iterationFigures() + ForkStart.figures() +
                capacity?.takeIf { last }?.let { CapacityRun.figures(it) }.orEmpty(),
        )
        measured.record(iteration, iterationReport)
        ClientReports.publish(iterationReport)
    }

    @TearDown(Level.Trial)
    fun finishTrial() {
        latencyLog?.close()
        // Let the requests in flight finish (briefly) before the server stops: stopping Tomcat aborts async requests
        // with an AsyncRequestTimeoutException warning per request otherwise. A failure read meanwhile fails the run
        // as one read in a window does, once everything is stopped.
        val drained = runCatching { client?.drain(Duration.ofSeconds(5)) }
        stopClientAndServer()
        measured.printWarnings(runName, mix)
        drained.getOrThrow()
    }

    private fun stopClientAndServer() {
        try {
            client?.close()
        } finally {
            client = null
            val sut = sut
            this.sut = null
            try {
                sut?.close()
            } finally {
                try {
                    stopDependenciesAndDatabase()
                } finally {
                    (sut as? InProcessServer)?.closeBudget()
                }
            }
        }
    }

    private fun stopDependenciesAndDatabase() {
        try {
            stopDependencies()
        } finally {
            ownDatabase?.close()
            ownDatabase = null
        }
    }

    /** One successful request (the whole body of every `@Benchmark` method). */
    protected fun call() = guarded { client!!.next() }

    // JMH runs no @TearDown after a failed invocation or iteration hook: stop the client and server here, or the
    // fork keeps Spring's non-daemon threads alive until JMH's 30 s shutdown timeout.
    private inline fun guarded(block: () -> Unit) {
        try {
            block()
        } catch (t: Throwable) {
            stopClientAndServer()
            throw t
        }
    }
}
