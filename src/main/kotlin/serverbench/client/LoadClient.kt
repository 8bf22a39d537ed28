package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import io.netty.channel.ManualIoEventLoop
import java.net.InetSocketAddress
import java.util.concurrent.TimeUnit

/**
 * An HTTP/1.1 load generator with two loop models, which differ only in when requests go out: closed loop ([rate] 0,
 * like `wrk -c N`: [connections] connections, each sending its next request when its response is complete; see
 * [ClosedLoop]) and open loop ([rate] > 0, like `wrk2 -R`: requests due on a fixed schedule, on up to [connections]
 * connections; see [OpenLoop]).
 *
 * Why it is built this way:
 * - **Driven by the caller's thread.** The Netty event loop is a [ManualIoEventLoop] owned by the thread that
 *   creates the client (the JMH benchmark thread) and runs only inside [next]. One [next] returns exactly one
 *   successful, validated response, so JMH's own operation count *is* the count of successful requests, and there is
 *   no hand-off between an I/O thread and the benchmark thread (a park/unpark per request would cost more CPU than
 *   the request itself). The client never runs on the server's threads.
 * - **Cheap per request.** Requests are encoded once; the hot path writes a view of the same bytes, parses the
 *   response with [ResponseParser] (no objects per response), compares the body bytes, and records its latency.
 * - **Every request is measured**, into HdrHistograms, none sampled ([IterationStats]). Latency ends at the last byte
 *   of the response. Closed loop: it starts at the write of the request, so a server stall, during which this client
 *   stops sending, shows only in the requests in flight. Open loop: it starts at the request's scheduled send,
 *   corrected for coordinated omission (every request due during a stall shows it), and the latency from the actual
 *   send is kept beside it. See the README, "Open loop (`-p rate`) and coordinated omission".
 * - **Every failure is counted by kind** ([Failures]); when the trial's count exceeds [ClientSettings.maxErrors],
 *   [next] throws [LoadFailure] and JMH fails the benchmark.
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
    val request: Request,
    internal val settings: ClientSettings = ClientSettings.fromSystemProperties(),
    /** Requests per second on a fixed schedule (open loop); 0 = closed loop. */
    val rate: Double = 0.0,
) : AutoCloseable {

    init {
        require(connections >= 1) { "connections must be >= 1, was $connections" }
        require(rate >= 0 && rate.isFinite()) { "rate must be >= 0 requests/s, was $rate" }
        require(address.address?.isLoopbackAddress == true) { "load goes to loopback only, not to $address" }
    }

    private val owner: Thread = Thread.currentThread()
    val transport: Transport = Transport.current
    private val loop = ManualIoEventLoop(owner, transport.ioHandlerFactory())
    private val requestBuffer: ByteBuf = request.encode(address.hostString, address.port)

    /** What connections write: Netty releases what it wrote; this wrapper makes that a no-op for the shared bytes. */
    internal val requestBytes: ByteBuf = Unpooled.unreleasableBuffer(requestBuffer)
    internal val expectedBody: ByteBuf = Unpooled.wrappedBuffer(request.expected)
    private val timeoutNanos = settings.timeout.toNanos()
    private val scanIntervalNanos =
        (timeoutNanos / 10).coerceIn(TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(100))
    private val stallNanos = 2 * timeoutNanos
    val openLoop: Boolean = rate > 0

    internal val stats = IterationStats(rate, connections)
    internal val failures = Failures("$request on $address", settings, stats.failures)

    /** Failures over the whole trial, warmup included: any of them beyond the tolerance fails the benchmark. */
    val trialFailures: FailureCounts = failures.trial
    internal val slots =
        ConnectionSlots(this, connections, loop, transport, address, settings.connectTimeout.toMillis().toInt())
    internal val pacing: Pacing =
        if (openLoop) OpenLoop(this, stats, connections, rate) else ClosedLoop(this, connections)

    internal var closing = false
        private set

    /** Requests still allowed to be sent; bounded only for probes and by [drain]. */
    internal var remainingRequests = Long.MAX_VALUE

    /** Successful responses already read but not yet returned by [next]. */
    private var pending = 0

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
        val initial = pacing.openInitial()
        val deadline = System.nanoTime() + settings.connectTimeout.toNanos() + SECOND_NANOS
        while (slots.active < initial) {
            failures.failIfOverLimit()
            if (System.nanoTime() - deadline > 0) {
                throw LoadFailure(
                    "only ${slots.active} of $connections connections to $address opened within " +
                        "${settings.connectTimeout.seconds} s",
                )
            }
            pacing.sendReady()
            loop.run(scanIntervalNanos)
        }
        lastSuccessAt = System.nanoTime()
    }

    /**
     * Returns when one more request has completed successfully, running the client's event loop as long as needed.
     * Throws [LoadFailure] when failures exceed the tolerance, when nothing succeeds for twice the timeout, or when
     * the thread is interrupted (JMH's own timeout).
     *
     * Inside a measurement window ([beginIteration] with a window), JMH ends its iteration at the first call that
     * returns after its deadline. Were that call to wait for the next success, a server that answers in bursts would
     * stretch the iteration over a quiet gap and count one response of the next burst (the rest discarded): the score
     * would read low by about gap ÷ window. So within a window one success is held back while it is the only one
     * pending, and returned at the window's end (first call + window + [WINDOW_SLACK_NANOS]); JMH's count then equals
     * the successes completed inside the window, whatever the burst pattern. A call after that finds nothing held
     * only when JMH's timer is late: it waits at most [LATE_CALL_WAIT_NANOS] for a success, then returns without one.
     */
    fun next() {
        if (pending > 1 || (pending == 1 && windowNanos == 0L)) {
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
            val now = System.nanoTime()
            val windowOver = windowNanos != 0L && now - windowEnd >= 0
            if (pending > 1 || (pending == 1 && (windowNanos == 0L || windowOver))) {
                pending--
                returned++
                return
            }
            if (windowOver && now - windowEnd >= LATE_CALL_WAIT_NANOS) {
                windowEnd = now // JMH's timer is late (see next()): the next such call waits again, never spins
                return
            }
            if (now - nextScanAt >= 0) {
                slots.expire(now, timeoutNanos)
                nextScanAt = now + scanIntervalNanos
                continue
            }
            if (now - lastSuccessAt > stallNanos) {
                val seconds = TimeUnit.NANOSECONDS.toSeconds(now - lastSuccessAt)
                throw LoadFailure(
                    "no successful response from $request for $seconds s " +
                        "(${trialFailures.total} failed requests: ${trialFailures.summary().ifEmpty { "none" }})",
                )
            }
            if (Thread.interrupted()) throw LoadFailure("interrupted while waiting for $request (JMH timeout?)")
            pacing.sendReady()
            var wakeAt = nextScanAt
            if (windowNanos != 0L) {
                val end = if (windowOver) windowEnd + LATE_CALL_WAIT_NANOS else windowEnd
                if (end - wakeAt < 0) wakeAt = end
            }
            wakeAt = pacing.sendDue(now, wakeAt)
            // run(0) would block until I/O arrives, past the next due send.
            loop.run((wakeAt - now).coerceAtLeast(1))
        }
    }

    /**
     * Stops sending and waits until every request in flight has its response (at most the client timeout, or
     * [maxWait]), so that counts kept elsewhere (a downstream stub's hits) can be compared exactly, and so that
     * stopping the server does not abort requests in flight. The client sends nothing afterwards. Returns the requests
     * still in flight when the wait ended (a server that serves its connections one by one may need longer).
     */
    fun drain(maxWait: java.time.Duration = settings.timeout): Int {
        checkOwner()
        remainingRequests = 0
        val deadline = System.nanoTime() + minOf(timeoutNanos, maxWait.toNanos())
        while (slots.inFlight() > 0 && System.nanoTime() - deadline < 0) {
            failures.failIfOverLimit()
            loop.run(scanIntervalNanos)
        }
        failures.failIfOverLimit()
        return slots.inFlight()
    }

    /** One validated request on one connection, for checking an endpoint before load starts. */
    fun probe() {
        remainingRequests = 1
        start()
        next()
    }

    /**
     * Starts a measurement window. JMH does not call [next] between iterations, so responses that arrived meanwhile
     * were read by nobody and when they completed is unknown: they are read here and counted neither as throughput nor
     * in the latency histogram. Cutting by completion time keeps the sample unbiased; cutting by send time instead
     * would drop the requests that straddle the boundary, and a request is more likely to straddle the longer it is.
     * Requests sent before the window that complete inside it are timed normally, since the client is reading again.
     */
    fun beginIteration(window: java.time.Duration? = null) {
        checkOwner()
        stats.startDiscarding()
        try {
            loop.runNow()
        } finally {
            stats.stopDiscarding()
        }
        pending = 0
        returned = 0
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
        val successes = if (windowNanos != 0L) returned else stats.successes
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
            if (loop.isTerminated) requestBuffer.release()
        }
    }

    /** A [Connection]'s success, read at [now]. */
    internal fun succeeded(now: Long, latencyNanos: Long, uncorrectedNanos: Long) {
        lastSuccessAt = now
        if (stats.succeeded(latencyNanos, uncorrectedNanos)) pending++
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

        /** "100" for 100.0, "2.5" for 2.5: a rate as the user typed it. */
        fun rateText(rate: Double): String = if (rate == Math.floor(rate)) rate.toLong().toString() else rate.toString()
    }
}
