package serverbench.client

import io.netty.channel.ManualIoEventLoop
import java.net.InetSocketAddress
import java.time.Duration
import java.util.concurrent.TimeUnit
import kotlin.math.roundToInt

/**
 * An HTTP/1.1 load generator with two loop models, which differ only in when requests go out: closed loop ([rate] 0,
 * like `wrk -c N`: [connections] connections, each sending its next request when its response is complete; see
 * [ClosedLoop]) and open loop ([rate] > 0, like `wrk2 -R`: requests due on a fixed schedule, on up to [connections]
 * connections; see [OpenLoop]).
 *
 * Why it is built this way:
 * - **Driven by the caller's thread**: a [ManualIoEventLoop] owned by the thread that creates it (JMH's benchmark
 *   thread, or a [LoadGroup]'s other thread) runs only inside [next]. One [next] returns one successful, validated
 *   response, so JMH's operation count *is* the count of successes, with no park/unpark per request (which would cost
 *   more CPU than the request). The client never runs on the server's threads.
 * - **Cheap per request**: a constant request encoded once (a templated one rendered per send into a pooled buffer,
 *   see [RequestRenderer]); [ResponseParser] allocates nothing per response.
 * - **Every request measured** into HdrHistograms ([IterationStats]), to the last byte of the response; from the send
 *   (closed loop) or from the scheduled send, corrected for coordinated omission (open loop; docs/open-loop.md).
 * - **Every failure counted by kind** ([Failures]); beyond [ClientSettings.maxErrors], [next] throws [LoadFailure].
 *
 * This class is the event loop and its API: the measurement window, timeouts and stalls. The rest is in
 * [ConnectionSlots] (opening and replacing connections), [Connection] (one of them and its request), [Pacing] (when
 * requests go out), [IterationStats] (what an iteration measured) and [Failures] (what failed, and when that fails the
 * benchmark).
 *
 * Not thread-safe: create, [start], [next], [beginIteration], [endIteration] and [close] from one thread.
 */
class LoadClient(
    private val address: InetSocketAddress,
    val connections: Int,
    /** What it sends: one request, or several by weight, each send the next of the mix's cycle (see [RequestMix]). */
    val mix: RequestMix,
    internal val settings: ClientSettings = ClientSettings.fromSystemProperties(),
    /** Requests per second on a fixed schedule (open loop); 0 = closed loop. */
    val rate: Double = 0.0,
    /** How this client shares a [LoadGroup]'s load; the defaults are a client alone. */
    private val share: GroupShare = GroupShare(),
) : AutoCloseable {
    /** A client that sends [request] alone: a one-entry [RequestMix]. */
    constructor(
        address: InetSocketAddress,
        connections: Int,
        request: Request,
        settings: ClientSettings = ClientSettings.fromSystemProperties(),
        rate: Double = 0.0,
        share: GroupShare = GroupShare(),
    ) : this(address, connections, RequestMix.of(request), settings, rate, share)

    init {
        require(connections >= 1) { "connections must be >= 1, was $connections" }
        require(rate >= 0 && rate.isFinite()) { "rate must be >= 0 requests/s, was $rate" }
        require(share.remoteAllowed || address.address?.isLoopbackAddress == true) {
            "load goes to loopback only, not to $address"
        }
        if (settings.http2Streams > 0) mix.entries.forEach { RequestHeaders.checkH2(it.request.headers) }
    }

    /** The mix's first request: the only one, unless [mix] has several entries. */
    val request: Request get() = mix.entries[0].request

    private val owner: Thread = Thread.currentThread()
    val transport: Transport = Transport.current
    private val loop = ManualIoEventLoop(owner, transport.ioHandlerFactory())

    /** Each entry's bytes, renderer and checks, made once (a single request: one entry). */
    internal val entries: Array<ClientEntry> =
        Array(mix.size) { ClientEntry(it, mix.entries[it].request, address, settings) }

    /**
     * Several entries: a send picks the next from [cycle]. A single request's connections never look: they keep entry
     * 0's state from their start, so its send does what it did before mixes existed.
     */
    internal val mixed: Boolean = entries.size > 1
    private val cycle: IntArray = mix.cycle

    /** This client's place in [cycle]: its own, so each thread's sends follow the weights. */
    private var cursor = 0
    private val timeoutNanos = settings.timeout.toNanos()
    private val scanIntervalNanos =
        (timeoutNanos / 10).coerceIn(TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(100))
    private val stallNanos = 2 * timeoutNanos
    val openLoop: Boolean = rate > 0

    // A templated request's size varies a little with its placeholders' widths: its sample stands for all. A mix's
    // is the entries' mean, weighted as they are sent.
    internal val stats = IterationStats(rate, connections, meanRequestBytes(), if (mixed) entries.size else 0)
    internal val failures = Failures(
        "$mix on $address",
        mix.entries.map { "${it.description} on $address" },
        settings,
        stats.failures,
        share.trialTotal,
    )

    /** Failures over the whole trial, warmup included: any of them beyond the tolerance fails the benchmark. */
    val trialFailures: FailureCounts = failures.trial
    internal val slots =
        ConnectionSlots(this, connections, loop, transport, address, settings.connectTimeout.toMillis().toInt())
    internal val pacing: Pacing =
        if (openLoop) OpenLoop(this, stats, connections, rate, share.phaseNanos) else ClosedLoop(this, connections)
    private val others = share.others

    internal var closing = false
        private set

    /** Requests still allowed to be sent; bounded only for probes and by [drain]. */
    internal var remainingRequests = Long.MAX_VALUE

    /** Successful responses already read but not yet returned by [next]. */
    private var pending = 0L

    /** Successes [next] returned in this iteration: JMH's operation count. */
    private var returned = 0L

    /** The measurement window's length (0: none, [next] returns each success at once), and its end (see [next]). */
    private var windowNanos = 0L
    private var windowEnd = 0L
    private var lastSuccessAt = System.nanoTime()
    private var nextScanAt = lastSuccessAt + scanIntervalNanos

    /** Complete responses since start, whatever they were: what a downstream stub's hit count is checked against. */
    var responses = 0L
        internal set

    /**
     * Closed loop: opens every connection and sends the first request on each; returns when all are connected.
     * Open loop: opens one connection (more are opened as the schedule needs them); the schedule starts with the first
     * [beginIteration].
     */
    fun start() {
        checkOwner()
        slots.openInitial(scanIntervalNanos)
        lastSuccessAt = System.nanoTime()
    }

    /**
     * Returns when one more request has completed successfully, running the client's event loop as long as needed.
     * Throws [LoadFailure] when failures exceed the tolerance, when nothing succeeds for twice the timeout, or when
     * the thread is interrupted (JMH's own timeout).
     *
     * Inside a measurement window ([beginIteration] with a window), one success is held back while it is the only one
     * pending and returned at the window's end (first call + window + [WINDOW_SLACK_NANOS]), so JMH's count equals the
     * successes completed inside the window whatever the burst pattern (docs/reading-the-output.md). A call
     * after that finds nothing held only when JMH's timer is late: it waits at most [LATE_CALL_WAIT_NANOS].
     */
    fun next() {
        if (pending > 1 || (pending == 1L && windowNanos == 0L)) {
            pending--
            returned++
            return
        }
        awaitSuccess()
    }

    private fun awaitSuccess() {
        checkOwner()
        if (windowNanos != 0L && windowEnd == 0L) windowEnd = System.nanoTime() + windowNanos + WINDOW_SLACK_NANOS
        while (true) {
            failures.failIfOverLimit()
            if (others != null) pending += others.collect()
            val now = System.nanoTime()
            val windowOver = windowNanos != 0L && now - windowEnd >= 0
            val lastMayGo = windowNanos == 0L || windowOver
            if (pending > 1 || (pending == 1L && lastMayGo)) {
                pending--
                returned++
                return
            }
            if (windowOver && now - windowEnd >= LATE_CALL_WAIT_NANOS) {
                windowEnd = stats.lateCall(now) // JMH's timer is late (see next()): counted; the next call waits again
                return
            }
            runOnce(now, wakeAt(now, windowOver))
        }
    }

    /** When a wait for a success ends: at the next scan, at the window's end (or the late call's), or the next poll. */
    private fun wakeAt(now: Long, windowOver: Boolean): Long {
        var wakeAt = nextScanAt
        if (windowNanos != 0L) {
            val end = if (windowOver) windowEnd + LATE_CALL_WAIT_NANOS else windowEnd
            if (end - wakeAt < 0) wakeAt = end
        }
        // While waiting, poll the other threads' successes at least this often, so that only those completed after
        // the last poll before JMH's deadline can miss its count (docs/scaling-the-load.md).
        if (others != null && now + OTHERS_POLL_NANOS - wakeAt < 0) wakeAt = now + OTHERS_POLL_NANOS
        return wakeAt
    }

    /**
     * One turn of the event loop, until [wakeAt] at the latest: expires timed-out requests when a scan is due (and
     * returns at once), fails a stalled or interrupted client, sends what is ready or due, then runs the loop.
     */
    private fun runOnce(now: Long, wakeAt: Long) {
        if (now - nextScanAt >= 0) {
            slots.expire(now, timeoutNanos)
            nextScanAt = now + scanIntervalNanos
            return
        }
        if (now - lastSuccessAt > stallNanos) {
            val seconds = TimeUnit.NANOSECONDS.toSeconds(now - lastSuccessAt)
            throw LoadFailure(
                "no successful response from $mix for $seconds s " +
                    "(${trialFailures.total} failed requests: ${trialFailures.summary().ifEmpty { "none" }})",
            )
        }
        if (Thread.interrupted()) throw LoadFailure("interrupted while waiting for $mix (JMH timeout?)")
        pacing.sendReady()
        val until = pacing.sendDue(now, wakeAt)
        // run(0) would block until I/O arrives, past the next due send.
        loop.run((until - now).coerceAtLeast(1))
    }

    /**
     * One turn of a [LoadGroup]'s other thread ([ClientWorker]): runs the event loop once and returns the successes
     * read, which that thread publishes instead of returning them one by one.
     */
    internal fun turn(): Long {
        checkOwner()
        failures.failIfOverLimit()
        val read = pending
        returned += read
        pending = 0
        runOnce(System.nanoTime(), nextScanAt)
        return read
    }

    /** Wakes the event loop from another thread (a [LoadGroup] command), so that a [turn] returns at once. */
    internal fun wakeup() = loop.wakeup()

    /**
     * Stops sending and waits until every request in flight has its response (at most the client timeout, or
     * [maxWait]), so that counts kept elsewhere (a downstream stub's hits) can be compared exactly, and so that
     * stopping the server does not abort requests in flight. The client sends nothing afterwards. Returns the requests
     * still in flight when the wait ended (a server that serves its connections one by one may need longer).
     */
    fun drain(maxWait: Duration = settings.timeout): Int {
        checkOwner()
        remainingRequests = 0
        return slots.drain(System.nanoTime() + minOf(timeoutNanos, maxWait.toNanos()), scanIntervalNanos)
    }

    /** One validated request on one connection, for checking an endpoint before load starts. */
    fun probe() {
        remainingRequests = 1
        start()
        next()
    }

    /**
     * Starts a measurement window. Responses that arrived between iterations (JMH calls nothing then) are read here and
     * counted neither as throughput nor as latency: cutting by completion time keeps the sample unbiased, where cutting
     * by send time would drop the requests that straddle the boundary, the longer ones more likely.
     */
    fun beginIteration(window: Duration? = null) {
        checkOwner()
        stats.startDiscarding()
        try {
            loop.runNow()
        } finally {
            stats.stopDiscarding()
        }
        pending = 0
        returned = 0
        others?.reset()
        windowNanos = window?.toNanos() ?: 0L
        windowEnd = 0L
        pacing.sendReady()
        pacing.beginIteration(System.nanoTime())
        stats.begin(slots.active)
        lastSuccessAt = stats.wallStart
    }

    fun endIteration(): ClientReport {
        checkOwner()
        // JMH stops calling next() now; requests queued by the last batch go out, so the server stays loaded.
        pacing.sendReady()
        val now = System.nanoTime()
        pacing.endIteration(now)
        // What JMH counted (in a window), or what next() returned when other threads' successes are among them.
        val successes = if (windowNanos != 0L || others != null) returned else stats.successes
        return stats.report(now, slots.all, slots.active, successes, pacing.scheduledInIteration)
    }

    override fun close() {
        if (closing) return
        closing = true
        slots.closeAll()
        loop.shutdownGracefully(0, 0, TimeUnit.SECONDS)
        if (Thread.currentThread() === owner) {
            val deadline = System.nanoTime() + 5 * SECOND_NANOS
            while (!loop.isTerminated && System.nanoTime() - deadline < 0) loop.run(TimeUnit.MILLISECONDS.toNanos(10))
            if (loop.isTerminated) entries.forEach { it.release() }
        }
    }

    /** The entry of the next send, from this client's place in the mix's cycle (only asked when [mixed]). */
    internal fun nextEntry(): ClientEntry {
        val at = cursor
        cursor = if (at + 1 == cycle.size) 0 else at + 1
        return entries[cycle[at]]
    }

    /** Bytes of one request when any carries a body (else null: not reported): the entries' mean, by weight. */
    private fun meanRequestBytes(): Int? {
        if (!mix.anyBody) return null
        val weighted = mix.entries.indices.sumOf { entries[it].wireSize.toLong() * mix.entries[it].weight }
        return (weighted.toDouble() / mix.entries.sumOf { it.weight.toLong() }).roundToInt()
    }

    /** A [Connection]'s success of [entry], read at [now]. */
    internal fun succeeded(now: Long, latencyNanos: Long, uncorrectedNanos: Long, bytes: Long, entry: Int) {
        lastSuccessAt = now
        if (stats.succeeded(latencyNanos, uncorrectedNanos, bytes, entry)) pending++
    }

    private fun checkOwner() {
        val thread = Thread.currentThread()
        check(thread === owner) {
            "the load client is driven by the thread that created it (${owner.name}), not ${thread.name}"
        }
    }

    companion object {
        /** One hour: far beyond any timeout, so no recorded value is ever clamped. */
        val HIGHEST_TRACKABLE_MICROS: Long = TimeUnit.HOURS.toMicros(1)
        private const val SECOND_NANOS = 1_000_000_000L

        /** Open loop: a request sent more than this after its scheduled time counts as late. */
        val LATE_NANOS: Long = TimeUnit.MILLISECONDS.toNanos(1)

        /**
         * A window ends this long after its nominal length: JMH's timer starts as the benchmark thread enters its loop
         * and wakes a little late, so the held success is returned after JMH's deadline, not before it.
         */
        private val WINDOW_SLACK_NANOS: Long = TimeUnit.MILLISECONDS.toNanos(2)

        /** After the window, how long a call that finds no success waits for one before returning without. */
        private val LATE_CALL_WAIT_NANOS: Long = TimeUnit.MILLISECONDS.toNanos(10)

        /** With other client threads: the benchmark thread collects their successes at least this often. */
        private val OTHERS_POLL_NANOS: Long = TimeUnit.MILLISECONDS.toNanos(1)

        /** "100" for 100.0, "2.5" for 2.5: a rate as the user typed it. */
        fun rateText(rate: Double): String = if (rate == Math.floor(rate)) rate.toLong().toString() else rate.toString()
    }
}
