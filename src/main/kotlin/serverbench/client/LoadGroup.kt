package serverbench.client

import java.net.InetSocketAddress
import java.time.Duration
import java.util.concurrent.atomic.AtomicLong

/**
 * The load of a benchmark on one or more client threads ([LoadSplit]), each its own event loop with its own
 * connections: thread 0 is the caller's (JMH's benchmark thread, as with one thread), the others [ClientWorker]s.
 *
 * Why it is shaped so: JMH's operation count must stay the count of successful, validated responses, and a hand-off per
 * request between threads would cost more CPU than the request. So each worker adds its successes to a counter only it
 * writes; the benchmark thread's [next] returns its own successes and, polling those counters after each batch of
 * its own events (and at least every millisecond while it waits), the workers' ones; only the workers' successes
 * completed after its last poll before JMH's deadline can miss JMH's count (docs/scaling-the-load.md). Latency
 * histograms are merged, never percentiles averaged; failures summed by kind, and the tolerance
 * ([ClientSettings.maxErrors]) applies to their sum.
 *
 * Not thread-safe: use it from the thread that created it, as [LoadClient].
 */
class LoadGroup(
    address: InetSocketAddress,
    connections: Int,
    /** What every thread sends, each from its own place in the mix's cycle (see [RequestMix]). */
    val mix: RequestMix,
    settings: ClientSettings = ClientSettings.fromSystemProperties(),
    rate: Double = 0.0,
    threads: Int = 1,
    /** Whether [address] may be off loopback: asked for explicitly (a server under test on its own host). */
    remoteAllowed: Boolean = false,
) : AutoCloseable {
    /** A group that sends [request] alone: a one-entry [RequestMix]. */
    constructor(
        address: InetSocketAddress,
        connections: Int,
        request: Request,
        settings: ClientSettings = ClientSettings.fromSystemProperties(),
        rate: Double = 0.0,
        threads: Int = 1,
        remoteAllowed: Boolean = false,
    ) : this(address, connections, RequestMix.of(request), settings, rate, threads, remoteAllowed)

    /** `-p protocol=h2`: streams per connection; [connections] then counts streams (requests in flight). */
    val streams: Int = maxOf(1, settings.http2Streams)
    val http2: Boolean = settings.http2Streams > 0

    /** Over connections (HTTP/2: each carrying [streams] slots), so that no connection's streams span two threads. */
    val split = LoadSplit.of(maxOf(1, connections / streams), rate, threads)
    private val trialFailures = AtomicLong()
    private val commandWait = settings.connectTimeout.plusSeconds(10)
    private val drainWait = settings.timeout.plusSeconds(10)
    private val workers: List<ClientWorker> = (1 until split.threads).map { i ->
        // Thread i's schedule starts i intervals of the whole rate after thread 0's: evenly spaced together.
        val phase = if (rate > 0) (i * 1e9 / rate).toLong() else 0L
        val share = GroupShare(phaseNanos = phase, trialTotal = trialFailures, remoteAllowed = remoteAllowed)
        ClientWorker(i) {
            LoadClient(address, split.connections[i] * streams, mix, settings, split.rates[i], share)
        }
    }
    private val others = if (workers.isEmpty()) null else WorkerSuccesses(workers)
    private val local = LoadClient(
        address,
        split.connections[0] * streams,
        mix,
        settings,
        split.rates[0],
        GroupShare(others, 0, trialFailures, remoteAllowed),
    )

    val connections: Int = connections
    val transport: Transport get() = local.transport
    val openLoop: Boolean get() = local.openLoop

    /** Complete responses since start, all threads (between iterations, when the workers wait). */
    val responses: Long get() = local.responses + workers.sumOf { it.responses }

    /** Opens every thread's connections (see [LoadClient.start]); returns when all are open. */
    fun start() {
        workers.forEach { it.start() }
        local.start()
        workers.forEach { it.awaitStarted(commandWait) }
    }

    /** One successful request of any thread (see [LoadClient.next]). */
    fun next() = local.next()

    fun beginIteration(window: Duration? = null) {
        workers.map { it to it.send(ClientWorker.Kind.BEGIN) }.forEach { (w, f) -> w.await(f, commandWait) }
        local.beginIteration(window)
    }

    /** The iteration's figures, all threads merged; each thread's own share in [ClientReport.threads]. */
    fun endIteration(): ClientReport {
        val ends = workers.map { it to it.send(ClientWorker.Kind.END) }
        val own = local.endIteration()
        if (ends.isEmpty()) return own
        return ClientReport.merge(own, ends.map { (w, f) -> w.await(f, commandWait) as ClientReport })
    }

    /** [LoadClient.drain] on every thread at once; returns the requests still in flight, all threads. */
    fun drain(maxWait: Duration = drainWait): Int {
        val drains = workers.map { it to it.send(ClientWorker.Kind.DRAIN, maxWait) }
        val own = local.drain(maxWait)
        return own + drains.sumOf { (w, f) -> w.await(f, drainWait) as Int }
    }

    /**
     * One validated request on one connection (see [LoadClient.probe]); only for a group of one thread. Returns the
     * connection's TLS protocol and cipher suite (null over plain HTTP).
     */
    fun probe(): String? {
        check(workers.isEmpty()) { "a probe is one request on one thread" }
        local.probe()
        return local.slots.tlsSession
    }

    override fun close() {
        val closes = workers.map { it to it.send(ClientWorker.Kind.CLOSE) }
        try {
            local.close()
        } finally {
            closes.forEach { (w, f) -> runCatching { w.await(f, commandWait) } }
        }
    }

    companion object {
        /**
         * One validated request to [request]'s endpoint at [address], on one connection, before any load; throws
         * [LoadFailure] saying what was wrong. A probe sends one request: a tolerated failure would leave it waiting
         * for a success that never comes, so it tolerates none. Returns the TLS protocol and cipher suite, or null.
         */
        fun verify(address: InetSocketAddress, request: Request, settings: ClientSettings, remoteAllowed: Boolean) =
            verify(address, RequestMix.of(request), settings, remoteAllowed)

        /**
         * Each entry of [mix] once, validated, in order, each on a connection of its own (as [verify] of a request),
         * before any load: an entry the server cannot answer fails here, its [LoadFailure] naming it, instead of
         * failing the run a share of the time. Returns the last probe's TLS protocol and cipher suite, or null.
         */
        fun verify(
            address: InetSocketAddress,
            mix: RequestMix,
            settings: ClientSettings,
            remoteAllowed: Boolean,
        ): String? {
            var session: String? = null
            for (entry in mix.entries) {
                // A one-entry mix keeps the entry's name, so the failure's line says which entry it was.
                val one = RequestMix(listOf(entry))
                session = LoadGroup(address, 1, one, settings.copy(maxErrors = 0), remoteAllowed = remoteAllowed).use {
                    it.probe()
                }
            }
            return session
        }

        /** Thread names "loadclient-1", ...: what the CPU budget keeps outside the server's group (<= 15 chars). */
        const val THREAD_PREFIX = "loadclient-"
    }

    /** The workers' success counters as the benchmark thread's [LoadClient.next] reads them. */
    private class WorkerSuccesses(private val workers: List<ClientWorker>) : OtherThreads {
        private val seen = LongArray(workers.size)

        override fun collect(): Long {
            var n = 0L
            for (i in seen.indices) {
                val w = workers[i]
                w.failure?.let { throw it }
                val now = w.successes.get()
                n += now - seen[i]
                seen[i] = now
            }
            return n
        }

        override fun reset() {
            for (i in seen.indices) seen[i] = workers[i].successes.get()
        }
    }
}
