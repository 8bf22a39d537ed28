package serverbench.benchmarks

import serverbench.app.ServerProbe
import serverbench.client.ClientSettings
import serverbench.client.ClientTls
import serverbench.client.LoadGroup
import serverbench.client.RequestMix
import serverbench.fixture.ActuatorEndpoint
import serverbench.fixture.CpuBudget
import serverbench.fixture.CpuPlacement
import serverbench.fixture.DownstreamStub
import serverbench.fixture.RemoteTarget
import serverbench.fixture.ServeAdmin
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind
import serverbench.fixture.ServerSources
import serverbench.fixture.TargetStatus
import serverbench.metrics.ActuatorResources
import serverbench.metrics.BudgetReport
import serverbench.metrics.ClientSideResources
import serverbench.metrics.InFlightGauge
import serverbench.metrics.JitSource
import serverbench.metrics.RemoteResources
import serverbench.metrics.ResourceMeter
import serverbench.metrics.ResourceSource
import serverbench.metrics.ServedJarResources
import serverbench.params.TargetLimits
import java.net.InetSocketAddress

/**
 * The server a trial drives: one [InProcessServer] starts in this JVM (under the CPU budget, if any), or a
 * [TargetServer] that already runs (`scripts/serve`, perhaps on its own host; `-Dserverbench.target`). Either way the
 * benchmark sees an address, a check of one request, per-iteration hooks and the server-side figures' source.
 */
internal abstract class ServerUnderTest : AutoCloseable {
    abstract val address: InetSocketAddress

    /** Whether [address] is off this JVM, which the load client must be told explicitly. */
    abstract val remote: Boolean

    /** Where the server-side figures come from. */
    abstract val resources: ResourceSource

    /** Processors the server may use: this JVM's (the budget's, under one), or the target's. */
    abstract val processors: Int

    /** The JIT the steady warmup judges: null for this JVM's own (JitMeter); a target's ([TargetJit]). */
    open val jit: JitSource? = null

    /** The setup line's "netty on /127.0.0.1:40079: context started in 812 ms" part. */
    abstract fun describe(): String

    /** [settings] for this server's clients: over TLS when it serves HTTPS. */
    abstract fun clientSettings(settings: ClientSettings): ClientSettings

    /**
     * One validated request to [request]'s endpoint, before any load; returns the TLS session's protocol and cipher
     * suite (null over plain HTTP); throws saying what was wrong.
     */
    open fun verify(request: RequestMix, settings: ClientSettings): String? =
        LoadGroup.verify(address, request, settings, remote)

    /** Before the client's window opens. */
    open fun beginIteration() {}

    /** The budget's figures for the iteration that just ended (null without one); checks the client stayed out. */
    open fun endIteration(): BudgetReport? = null
}

/** A Spring Boot server started in this JVM, under [budget] when the run has one (docs/cpu-budget.md). */
internal class InProcessServer private constructor(
    private val fixture: ServerFixture,
    private val budget: CpuBudget?,
) : ServerUnderTest() {
    override val address: InetSocketAddress get() = fixture.address
    override val remote = false
    override val processors: Int get() = Runtime.getRuntime().availableProcessors()
    private var throttlingStart: CpuBudget.Throttling? = null
    private val meter = ResourceMeter(
        object : InFlightGauge {
            override fun resetMax() = ServerProbe.resetMax()

            override fun max() = ServerProbe.inFlightMax
        },
        // The proxy family's downstream stub stands for other machines: its CPU and garbage are not the server's.
        outside = { it.startsWith(DownstreamStub.THREAD_PREFIX) },
    )

    /** The JVM's figures, and the budget's CFS counters over the same span. */
    override val resources = object : ResourceSource {
        override fun begin() {
            throttlingStart = budget?.throttling()
            meter.begin()
        }

        override fun end() = meter.end()
    }

    override fun describe() = "${fixture.kind.id} on ${fixture.address}: context started in ${fixture.startMillis} ms"

    override fun clientSettings(settings: ClientSettings) = fixture.clientSettings(settings)

    override fun verify(request: RequestMix, settings: ClientSettings): String? {
        val session = super.verify(request, settings)
        budget?.let { b ->
            b.sweep()
            println(TrialLines.budget(b))
        }
        return session
    }

    override fun beginIteration() {
        // Threads made since the last sweep go where they belong (a JVM-wide pool the client's thread started joins
        // the server's group); one that cannot be moved fails the run here, in one line.
        budget?.sweep()
    }

    override fun endIteration(): BudgetReport? = budget?.let { b ->
        b.requireClientOutside()
        BudgetReport(
            b.placement.cpus,
            throttlingStart?.let { start -> b.throttling()?.minus(start) },
            b.placement.clientCpus,
        )
    }

    /** Stops the server; the budget stays until [closeBudget], after the family's dependencies stopped. */
    override fun close() = fixture.close()

    fun closeBudget() {
        budget?.let { println("serverbench: ${it.summary()}") }
        budget?.close()
    }

    companion object {
        /**
         * Applies [placement] to this JVM (when limited), then starts [kind] with the properties [properties] gives
         * (called after the budget exists, so a family's dependencies start outside it as before). On failure, the
         * budget made so far is removed before the one-line exception leaves.
         */
        fun start(
            kind: ServerKind,
            placement: CpuPlacement,
            tls: Boolean,
            sources: ServerSources,
            properties: () -> Map<String, Any>,
        ): InProcessServer {
            // A stack the user's application cannot run fails before the budget or anything else starts.
            sources.refusal(kind)?.let { throw IllegalArgumentException(it) }
            val budget = if (placement.limited) startBudget(placement) else null
            try {
                val props = properties()
                val fixture = try {
                    // Started on a thread inside the budget, so that every thread the server makes lands there too.
                    budget?.onServerThread("serverbench-server-start") {
                        ServerFixture.start(kind, props, tls, sources)
                    } ?: ServerFixture.start(kind, props, tls, sources)
                } catch (e: Exception) {
                    // Spring wraps the cause (a port in use, a bean that failed) in layers of context; say the cause.
                    val cause = generateSequence<Throwable>(e) { it.cause }.last()
                    throw IllegalStateException("the ${kind.id} server failed to start: ${cause.message ?: cause}", e)
                }
                return InProcessServer(fixture, budget)
            } catch (t: Throwable) {
                budget?.close()
                throw t
            }
        }

        /**
         * The launcher started this fork with as many processors as the budget allows; a run that bypassed it would
         * size its pools for the whole machine, so it fails instead.
         */
        private fun startBudget(placement: CpuPlacement): CpuBudget {
            val active = Runtime.getRuntime().availableProcessors()
            // A quota on the client alone leaves the server the whole machine, as the launcher does.
            check(placement.activeProcessors.let { it == null || it == active }) {
                "$placement needs the fork started with -XX:ActiveProcessorCount=${placement.activeProcessors} (it " +
                    "sees $active processors); run it through target/benchmarks.jar's launcher, which adds it"
            }
            return CpuBudget.start(placement)
        }
    }
}

/**
 * A server that already runs (`-Dserverbench.target=host:port`). Started by `scripts/serve`, it is checked to run the
 * stack `-p server` names before any load, and its process's CPU, threads, heap, GC and throttling come from its admin
 * endpoint each iteration ([RemoteResources]). Any other HTTP server says neither: `-p server` then only labels the
 * results, and the server-side figures are absent ([ClientSideResources]), never zeros or the client's. The client's
 * figures come from this JVM either way.
 */
internal class TargetServer private constructor(
    private val target: RemoteTarget,
    private val tls: Boolean,
    private val status: TargetStatus?,
    override val resources: ResourceSource,
    override val jit: JitSource?,
    /** Why the target gave no server-side figures ("" when it gave some). */
    private val noFigures: String,
) : ServerUnderTest() {
    override val address: InetSocketAddress get() = target.address
    override val remote = true

    // A server that does not say its processors is taken to have this host's, as on one machine.
    override val processors: Int get() = status?.availableProcessors ?: Runtime.getRuntime().availableProcessors()

    override fun describe() = when {
        status != null -> "${target.describe(status)}; server-side figures from that process" +
            (if (resources is ServedJarResources) " (allocation, GC pauses and JIT from its Actuator)" else "") +
            ", the client's from this JVM"

        resources is ActuatorResources -> "a server on ${ServeAdmin.hostPort(target.address)} that does not say " +
            "its stack (no scripts/serve admin endpoint); server-side figures from its Actuator ($resources), the " +
            "client's from this JVM"

        else -> "a server on ${ServeAdmin.hostPort(target.address)} that says neither its stack nor its figures (no " +
            "scripts/serve admin endpoint at ${ServeAdmin.hostPort(target.adminAddress)}, $noFigures): no " +
            "server-side figures, the client's from this JVM"
    }

    override fun clientSettings(settings: ClientSettings) =
        if (tls) settings.copy(tls = ClientTls.trustingAny(settings.http2Streams > 0)) else settings

    override fun endIteration(): BudgetReport? = when (val r = resources) {
        is RemoteResources -> r.budget()
        is ServedJarResources -> r.budget()
        else -> null
    }

    override fun close() {}

    companion object {
        /**
         * Connects to [target] for a run labelled `-p server=`[server], which a target started by `scripts/serve` must
         * run; [requireRemoteable] has refused what only a server in this JVM can take.
         */
        fun connect(target: RemoteTarget, server: String, tls: Boolean): TargetServer {
            val status = target.servedStatus()
            if (status == null) {
                val override = System.getProperty(ActuatorEndpoint.PROPERTY)
                var absent = ""
                val actuator = ActuatorResources.probe(target.address, tls, override) { absent = it }
                    ?: return TargetServer(
                        target,
                        tls,
                        null,
                        ClientSideResources(target.toString()),
                        TargetJit.own("the target reports no compile time"),
                        absent,
                    )
                val jit =
                    actuator.jit() ?: TargetJit.own("the target's Actuator has no ${ActuatorResources.COMPILATION}")
                return TargetServer(target, tls, null, actuator, jit, "")
            }
            target.requireServer(server, status)
            val admin = RemoteResources(target)
            // A jar served by scripts/serve --jar: /proc cannot see inside its JVM, its Actuator (if any) can.
            val actuator = if (status.allocatedBytes >= 0 && status.jitNanos != null) {
                null
            } else {
                ActuatorResources.probe(target.address, tls, System.getProperty(ActuatorEndpoint.PROPERTY))
            }
            if (actuator == null) {
                return TargetServer(target, tls, status, admin, TargetJit.of(target, status), "")
            }
            val jit = if (status.jitNanos != null) {
                TargetJit.of(target, status)
            } else {
                actuator.jit()
                    ?: TargetJit.own("the target reports no compile time")
            }
            return TargetServer(target, tls, status, ServedJarResources(admin, actuator), jit, "")
        }

        /**
         * Before [connect]: what a run of [benchmark] with [params] and the server [properties] asks that only a
         * server in this JVM can take is refused in one line that says how to apply it on the target, in the
         * launcher's words ([TargetLimits]), for runs that bypass it.
         */
        fun requireRemoteable(
            params: Map<String, String>,
            benchmark: String,
            inProcessOnly: String?,
            properties: Map<String, Any>,
        ) {
            TargetLimits.refusal(params, RemoteTarget.ELSEWHERE)?.let { throw IllegalArgumentException(it) }
            require(inProcessOnly == null) { "$benchmark cannot drive -D${RemoteTarget.TARGET}: $inProcessOnly" }
            // What else a family puts in the server's properties (Netty's sslProvider) is no knob, but still the
            // target's to set.
            require(properties.isEmpty()) {
                "$benchmark's parameters set the server's properties (${properties.keys.joinToString()}), which a " +
                    "target takes from its own start: JAVA_OPTS='" +
                    properties.entries.joinToString(" ") { "-D${it.key}=${it.value}" } + "' scripts/serve ..."
            }
        }
    }
}
