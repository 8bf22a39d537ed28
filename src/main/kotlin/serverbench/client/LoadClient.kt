package serverbench.client

import io.netty.bootstrap.Bootstrap
import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import io.netty.channel.Channel
import io.netty.channel.ChannelInitializer
import io.netty.channel.ChannelOption
import io.netty.channel.ManualIoEventLoop
import java.net.InetSocketAddress
import java.util.concurrent.TimeUnit

/**
 * An HTTP/1.1 load generator with two loop models:
 * - **closed loop** ([rate] 0, like `wrk -c N`): exactly [connections] keep-alive connections, each with one request in
 *   flight; a connection sends its next request the moment the previous response is complete.
 * - **open loop** ([rate] > 0, like `wrk2 -R`): requests are due on a fixed schedule, one every 1/[rate] s, whatever
 *   the responses do; each goes out on an idle connection, a new one is opened while fewer than [connections] exist,
 *   and when all [connections] are busy the request waits for one and is counted *late* (never skipped). Latency is
 *   recorded twice: from the request's intended send time (corrected for coordinated omission: a server stall delays
 *   every request due during it, and they all show it) and from its actual send (uncorrected, what a closed-loop
 *   client reports). A request still unsent a whole timeout after it was due is *dropped*: counted as a failure.
 *
 * Why it is built this way:
 * - **Driven by the caller's thread.** The Netty event loop is a [ManualIoEventLoop] owned by the thread that
 *   creates the client (the JMH benchmark thread) and runs only inside [next]. One [next] returns exactly one
 *   successful, validated response, so JMH's own operation count *is* the count of successful requests, and there is
 *   no hand-off between an I/O thread and the benchmark thread (a park/unpark per request would cost more CPU than
 *   the request itself). The client never runs on the server's threads.
 * - **Cheap per request.** Requests are encoded once; the hot path writes a view of the same bytes, parses
 *   the response head with [ResponseParser] (no objects per response), compares the body bytes, and records one latency value.
 * - **Every request is measured.** Latency runs from the write of the request to the last byte of the response and
 *   goes into an HdrHistogram (µs, 3 significant digits): every response, none sampled. This is closed-loop
 *   latency: when the server stalls, this client stops sending, so it shows the stall only in the requests that
 *   were in flight (see README, "closed loop").
 * - **Every failure is counted by kind** ([FailureKind]); when the trial's count exceeds [ClientSettings.maxErrors],
 *   [next] throws [LoadFailure] and JMH fails the benchmark.
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
    /** What connections write: Netty releases what it wrote, and this wrapper makes that a no-op for the shared bytes. */
    internal val requestBytes: ByteBuf = Unpooled.unreleasableBuffer(requestBuffer)
    internal val expectedBody: ByteBuf = Unpooled.wrappedBuffer(request.expected)
    private val timeoutNanos = settings.timeout.toNanos()
    private val scanIntervalNanos = (timeoutNanos / 10).coerceIn(TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(100))
    private val stallNanos = 2 * timeoutNanos
    private val bootstrap = Bootstrap()
        .group(loop)
        .channel(transport.channelClass)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.connectTimeout.toMillis().toInt())
    private val slots = arrayOfNulls<Connection>(connections)
    /** Connections whose next request waits for the end of the current batch of events (see [flushSends]). */
    private val sendQueue = arrayOfNulls<Connection>(connections)
    private var queuedSends = 0

    val openLoop: Boolean = rate > 0
    // Open loop: request k is due at scheduleStart + k * intervalNanos; `scheduled` is the first one not yet sent.
    private val intervalNanos = if (openLoop) 1e9 / rate else 0.0
    private var scheduleStart = 0L
    private var scheduled = 0L
    /** [scheduled] when the iteration began. */
    private var scheduledAtStart = 0L
    private var scheduleRunning = false
    private var pausedAt = 0L
    /** Open loop: connections with nothing in flight, ready for the next due request. */
    private val idle = arrayOfNulls<Connection>(connections)
    private var idleCount = 0
    /** Open loop: slots in use (connections are opened on demand, up to [connections]) and those still connecting. */
    private var opened = 0
    private var connecting = 0

    private var active = 0
    internal var closing = false
        private set
    /** Successful responses already read but not yet returned by [next]. */
    private var pending = 0
    /** Successes [next] returned in this iteration: JMH's operation count. */
    private var returned = 0L
    /** The measurement window's length (0: none, [next] returns every success at once) and its end, set by the first call. */
    private var windowNanos = 0L
    private var windowEnd = 0L
    private var lastSuccessAt = System.nanoTime()
    private var nextScanAt = lastSuccessAt + scanIntervalNanos
    /** Requests still allowed to be sent; bounded only for probes. */
    internal var remainingRequests = Long.MAX_VALUE

    /** Failures over the whole trial, warmup included: any of them beyond the tolerance fails the benchmark. */
    val trialFailures = FailureCounts()

    /** Complete responses received since start, whatever they were: what a downstream stub's hit count is checked against. */
    var responses = 0L
        internal set

    /** What the current iteration measured. */
    internal val stats = IterationStats(rate, connections)

    /**
     * Closed loop: opens every connection and sends the first request on each; returns when all are connected.
     * Open loop: opens one connection (more are opened as the schedule needs them); the schedule starts with the first
     * [beginIteration].
     */
    fun start() {
        checkOwner()
        val initial = if (openLoop) 1 else connections
        for (slot in 0 until initial) connect(slot)
        opened = initial
        val deadline = System.nanoTime() + settings.connectTimeout.toNanos() + SECOND_NANOS
        while (active < initial) {
            failIfOverLimit()
            if (System.nanoTime() - deadline > 0) {
                throw LoadFailure("only $active of $connections connections to $address opened within ${settings.connectTimeout.seconds} s")
            }
            flushSends()
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
            failIfOverLimit()
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
                expireTimedOut(now)
                nextScanAt = now + scanIntervalNanos
                continue
            }
            if (now - lastSuccessAt > stallNanos) {
                throw LoadFailure("no successful response from $request for ${TimeUnit.NANOSECONDS.toSeconds(now - lastSuccessAt)} s " +
                    "(${trialFailures.total} failed requests: ${trialFailures.summary().ifEmpty { "none" }})")
            }
            if (Thread.interrupted()) throw LoadFailure("interrupted while waiting for $request (JMH timeout?)")
            flushSends()
            var wakeAt = nextScanAt
            if (windowNanos != 0L) {
                val end = if (windowOver) windowEnd + LATE_CALL_WAIT_NANOS else windowEnd
                if (end - wakeAt < 0) wakeAt = end
            }
            if (openLoop) {
                dispatchDue(now)
                val due = intendedAt(scheduled)
                if (due - wakeAt < 0) wakeAt = due
            }
            // run(0) would block until I/O arrives, past the next due send.
            loop.run((wakeAt - now).coerceAtLeast(1))
        }
    }

    private fun intendedAt(k: Long): Long = scheduleStart + (k * intervalNanos).toLong()

    /**
     * Open loop: sends every request that is due, each on an idle connection; opens new connections while requests wait
     * and fewer than [connections] exist; a request that waits because all [connections] are busy is sent when one
     * frees up, and counted late.
     */
    private fun dispatchDue(now: Long) {
        if (!scheduleRunning) return
        while (remainingRequests > 0 && !closing) {
            val due = intendedAt(scheduled)
            if (due - now > 0) return
            if (now - due > timeoutNanos) {
                scheduled++
                stats.dropped++
                failed(FailureKind.DROPPED, "not sent within ${settings.timeout.toMillis()} ms of its scheduled time: all " +
                    "$connections connections were busy (the server is slower than -p rate=${rateText(rate)}; raise -p concurrency or lower the rate)")
                stats.unanswered(now - due)
                continue
            }
            if (idleCount == 0) {
                val waiting = ((now - scheduleStart) / intervalNanos).toLong() + 1 - scheduled
                while (opened < connections && connecting < waiting) openAnother()
                if (opened >= connections) stats.capReached = true
                return
            }
            val c = idle[--idleCount]!!
            idle[idleCount] = null
            if (!c.isUsable()) continue
            remainingRequests--
            scheduled++
            if (now - due > LATE_NANOS) stats.late++
            c.send(due)
            // Keep one spare connection ready while under the cap, so a request is not late by a connect (~0.3 ms
            // here, and a connect handshake queued behind the server's work when it is busy), as wrk2 pre-opens its.
            if (idleCount == 0 && connecting == 0 && opened < connections) openAnother()
        }
    }

    /** Open loop: one more connection, in the next unused slot. */
    private fun openAnother() {
        connecting++
        connect(opened++)
    }

    /** [c] may carry a request: it connected, or its response is complete and the connection stays open. */
    internal fun ready(c: Connection) {
        if (openLoop) becameIdle(c) else queueSend(c)
    }

    internal fun connected(c: Connection) {
        active++
        stats.connectionsOpen(active)
        if (openLoop) {
            if (connecting > 0) connecting--
            becameIdle(c)
        } else {
            queueSend(c)
        }
    }

    internal fun disconnected() {
        active--
    }

    /** [c] closed: a new connection takes its slot. */
    internal fun replace(c: Connection) {
        if (openLoop) {
            forgetIdle(c)
            connecting++
        }
        connect(c.slot)
    }

    internal fun holds(c: Connection): Boolean = slots[c.slot] === c

    private fun becameIdle(c: Connection) {
        idle[idleCount++] = c
    }

    /** A closed connection leaves the idle stack at once: its replacement takes its place, so the stack never overflows. */
    private fun forgetIdle(c: Connection) {
        val i = (0 until idleCount).firstOrNull { idle[it] === c } ?: return
        System.arraycopy(idle, i + 1, idle, i, idleCount - i - 1)
        idle[--idleCount] = null
    }

    /**
     * Stops sending and waits until every request in flight has its response (at most the client timeout, or [maxWait]),
     * so that counts kept elsewhere (a downstream stub's hits) can be compared exactly, and so that stopping the server
     * does not abort requests in flight. The client sends nothing afterwards. Returns the requests still in flight
     * when the wait ended (a server that serves its connections one by one may need longer than the wait).
     */
    fun drain(maxWait: java.time.Duration = settings.timeout): Int {
        checkOwner()
        remainingRequests = 0
        val deadline = System.nanoTime() + minOf(timeoutNanos, maxWait.toNanos())
        while (slots.any { it?.inFlight == true } && System.nanoTime() - deadline < 0) {
            failIfOverLimit()
            loop.run(scanIntervalNanos)
        }
        failIfOverLimit()
        return slots.count { it?.inFlight == true }
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
        flushSends()
        val now = System.nanoTime()
        if (openLoop) {
            // Nothing was sent while JMH was between iterations: the schedule resumes where it stopped, shifted by the
            // pause, so the pause is never counted as lateness and a real backlog is kept.
            if (scheduleRunning) scheduleStart += now - pausedAt
            else {
                scheduleStart = now
                scheduled = 0
                scheduleRunning = true
            }
        }
        scheduledAtStart = scheduled
        stats.begin(active)
        lastSuccessAt = stats.wallStart
    }

    fun endIteration(): ClientReport {
        checkOwner()
        // JMH stops calling next() now; requests queued by the last batch go out, so the server stays loaded.
        flushSends()
        val now = System.nanoTime()
        if (openLoop) {
            dispatchDue(now)
            pausedAt = now
        }
        val successes = if (windowNanos != 0L) returned else stats.successes
        return stats.report(now, slots, active, successes, scheduled = scheduled - scheduledAtStart)
    }

    override fun close() {
        if (closing) return
        closing = true
        for (c in slots) c?.channel?.close()
        loop.shutdownGracefully(0, 0, TimeUnit.SECONDS)
        if (Thread.currentThread() === owner) {
            val deadline = System.nanoTime() + 5 * SECOND_NANOS
            while (!loop.isTerminated && System.nanoTime() - deadline < 0) loop.run(TimeUnit.MILLISECONDS.toNanos(10))
            if (loop.isTerminated) requestBuffer.release()
        }
    }

    private fun checkOwner() {
        check(Thread.currentThread() === owner) {
            "the load client is driven by the thread that created it (${owner.name}), not ${Thread.currentThread().name}"
        }
    }

    private fun failIfOverLimit() {
        if (trialFailures.total > settings.maxErrors) throw LoadFailure(failureMessage())
    }

    private fun failureMessage(): String {
        val tolerance = if (settings.maxErrors == 0L) "" else " (tolerated: ${settings.maxErrors})"
        val n = trialFailures.total
        val hints = listOfNotNull(
            // A server that answers, only slower than the timeout (e.g. a Netty event loop blocked by each request).
            "if the server is just slow: -D${ClientSettings.TIMEOUT_PROPERTY}=N (now ${settings.timeout.toMillis()})"
                .takeIf { trialFailures[FailureKind.TIMEOUT] > 0 },
            "to tolerate failures: -D${ClientSettings.MAX_ERRORS_PROPERTY}=N".takeIf { settings.maxErrors == 0L },
        )
        return "$n failed request${if (n == 1L) "" else "s"}$tolerance: ${trialFailures.summary()}; first: ${trialFailures.first}" +
            if (hints.isEmpty()) "" else " [${hints.joinToString("; ")}]"
    }

    internal fun failed(kind: FailureKind, detail: String) {
        val text = "$request on $address: $detail"
        trialFailures.add(kind, text)
        stats.failures.add(kind, text)
    }

    internal fun succeeded(now: Long, latencyNanos: Long, uncorrectedNanos: Long) {
        lastSuccessAt = now
        if (stats.succeeded(latencyNanos, uncorrectedNanos)) pending++
    }

    private fun queueSend(c: Connection) {
        sendQueue[queuedSends++] = c
    }

    /**
     * Sends the requests of every connection that completed a response in the last batch of events, back to back,
     * right before the loop waits again. Sending inside the read handler instead wakes a server thread per request;
     * sent together, a woken server event loop finds several requests ready. Each send is still timed on its own.
     */
    private fun flushSends() {
        val n = queuedSends
        queuedSends = 0
        for (i in 0 until n) {
            val c = sendQueue[i]!!
            sendQueue[i] = null
            // Closed (and replaced) while its send was queued: nothing to send on.
            if (closing || remainingRequests <= 0 || !c.isCurrent()) continue
            remainingRequests--
            c.send(0L)
        }
    }

    private fun expireTimedOut(now: Long) {
        for (c in slots) if (c != null && c.inFlight && now - c.sentAt > timeoutNanos) c.timedOut(now)
    }

    internal fun connect(slot: Int) {
        val connection = Connection(this, slot)
        slots[slot] = connection
        bootstrap.clone()
            .handler(object : ChannelInitializer<Channel>() {
                override fun initChannel(ch: Channel) {
                    ch.pipeline().addLast(connection)
                }
            })
            .connect(address)
            .addListener { f ->
                if (!f.isSuccess && !closing) {
                    failed(FailureKind.IO_ERROR, "connect failed: ${f.cause()}")
                    // Retry later, not at once: a dead server would otherwise turn this into a busy loop.
                    loop.schedule({ if (!closing) connect(slot) }, RECONNECT_DELAY_MILLIS, TimeUnit.MILLISECONDS)
                }
            }
    }

    companion object {
        /** One hour: far beyond any timeout, so no recorded value is ever clamped. */
        val HIGHEST_TRACKABLE_MICROS: Long = TimeUnit.HOURS.toMicros(1)
        private const val SECOND_NANOS = 1_000_000_000L
        private const val RECONNECT_DELAY_MILLIS = 10L
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
