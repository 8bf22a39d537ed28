package serverbench.client

/**
 * When requests go out: the one thing in which the two loop models of [LoadClient] differ. The client calls it at
 * fixed points of its event loop; a connection tells it when it may carry a request ([ready]) and when it closed
 * ([lost]). [ClosedLoop] and [OpenLoop] are final, so a call site sees at most these two, which the JIT inlines.
 */
internal abstract class Pacing { // not sealed: JMH's bytecode generator cannot read a sealed class's subclass list
    /** Opens the connections [LoadClient.start] waits for; returns how many. */
    abstract fun openInitial(): Int

    /** [c] just connected. */
    open fun connected(c: RequestSlot) = ready(c)

    /** [c] may carry a request: it connected, or its response is complete and the connection stays open. */
    abstract fun ready(c: RequestSlot)

    /** [c] closed; a new connection is being opened in its slot. */
    open fun lost(c: RequestSlot) {}

    /** Closed loop: sends the requests the last batch of events made ready (see [ClosedLoop.sendReady]). */
    open fun sendReady() {}

    /** Open loop: sends what is due at [now]; returns when the loop must wake for the next due request, or [wakeAt]. */
    open fun sendDue(now: Long, wakeAt: Long): Long = wakeAt

    /** An iteration begins at [now] (JMH sent nothing since [endIteration]). */
    open fun beginIteration(now: Long) {}

    /** The iteration ends at [now]. */
    open fun endIteration(now: Long) {}

    /** Requests the schedule sent (or dropped) since [beginIteration]; 0 in closed loop. */
    open val scheduledInIteration: Long get() = 0
}

/**
 * Closed loop (`wrk -c N`): every connection is opened at start and carries one request at a time; its next request
 * is due the moment the previous response is complete, so latency runs from the actual send.
 */
internal class ClosedLoop(private val client: LoadClient, private val connections: Int) : Pacing() {
    /** Connections whose next request waits for the end of the current batch of events (see [sendReady]). */
    private val queue = arrayOfNulls<RequestSlot>(connections)
    private var queued = 0

    /** All of them: each sends its first request once connected. */
    override fun openInitial(): Int {
        for (slot in 0 until connections) client.slots.connect(slot)
        return connections
    }

    override fun ready(c: RequestSlot) {
        queue[queued++] = c
    }

    /**
     * Sends the requests of every connection that completed a response in the last batch of events, back to back,
     * right before the loop waits again. Sending inside the read handler instead wakes a server thread per request;
     * sent together, a woken server event loop finds several requests ready. Each send is still timed on its own.
     */
    override fun sendReady() {
        val n = queued
        queued = 0
        for (i in 0 until n) {
            val c = queue[i]!!
            queue[i] = null
            // Closed (and replaced) while its send was queued: nothing to send on.
            if (client.closing || client.remainingRequests <= 0 || !c.isCurrent()) continue
            client.remainingRequests--
            c.send(0L)
        }
        client.slots.flushWrites()
    }
}

/**
 * Open loop (`wrk2 -R`): request k is due at start + k / rate, whatever the responses do, and goes out on an idle
 * connection; a new one is opened while requests wait and fewer than [connections] exist. A request that waits
 * because all of them are busy goes out when one frees up, counted late; one still unsent a whole timeout after it was
 * due is dropped (a failure). Latency runs from the due time, so a server stall shows in every request due during it.
 */
internal class OpenLoop(
    private val client: LoadClient,
    private val stats: IterationStats,
    private val connections: Int,
    private val rate: Double,
    /**
     * Where this thread's schedule sits within the group's (see [LoadGroup]): thread i of N, each at rate ÷ N, starts
     * i intervals of the whole rate later, so their requests interleave evenly instead of going out N at a time.
     */
    private val phaseNanos: Long = 0,
) : Pacing() {
    private val intervalNanos = 1e9 / rate
    private val timeoutNanos = client.settings.timeout.toNanos()

    // Request k is due at scheduleStart + k * intervalNanos; `scheduled` is the first one not yet sent.
    private var scheduleStart = 0L
    private var scheduled = 0L

    /** [scheduled] when the iteration began. */
    private var scheduledAtStart = 0L
    private var scheduleRunning = false
    private var pausedAt = 0L

    /** Connections with nothing in flight, ready for the next due request. */
    private val idle = arrayOfNulls<RequestSlot>(connections)
    private var idleCount = 0

    /**
     * Slots in use (connections are opened on demand, up to [connections]) and connections opened after the first that
     * are still connecting (new ones, and replacements of closed ones).
     */
    private var opened = 0
    private var connecting = 0

    /** One: more are opened as due requests wait for one. */
    override fun openInitial(): Int {
        client.slots.connect(0)
        opened = 1
        return 1
    }

    override fun connected(c: RequestSlot) {
        if (connecting > 0) connecting--
        ready(c)
    }

    override fun ready(c: RequestSlot) {
        idle[idleCount++] = c
    }

    /** A closed connection leaves the idle stack at once: its replacement takes its place, so it never overflows. */
    override fun lost(c: RequestSlot) {
        val i = (0 until idleCount).firstOrNull { idle[it] === c }
        if (i != null) {
            System.arraycopy(idle, i + 1, idle, i, idleCount - i - 1)
            idle[--idleCount] = null
        }
        connecting++
    }

    override fun sendDue(now: Long, wakeAt: Long): Long {
        dispatchDue(now)
        client.slots.flushWrites()
        val due = intendedAt(scheduled)
        // Due already and no idle connection: nothing to send until one frees up or connects (I/O wakes the loop) or
        // the request's drop deadline; waking at its due time would spin the loop for as long as the server lags,
        // taking the CPU the server lacks (docs/capacity.md).
        val next = if (due - now <= 0 && idleCount == 0 && scheduleRunning) due + timeoutNanos else due
        return if (next - wakeAt < 0) next else wakeAt
    }

    private fun intendedAt(k: Long): Long = scheduleStart + phaseNanos + (k * intervalNanos).toLong()

    /**
     * Sends every request that is due, each on an idle connection; opens new connections while requests wait and
     * fewer than [connections] exist; a request that waits because all [connections] are busy is sent when one frees
     * up, and counted late.
     */
    private fun dispatchDue(now: Long) {
        if (!scheduleRunning) return
        while (client.remainingRequests > 0 && !client.closing) {
            val due = intendedAt(scheduled)
            if (due - now > 0) return
            if (now - due > timeoutNanos) {
                drop(now, due)
                continue
            }
            if (idleCount == 0) {
                openForWaiting(now)
                return
            }
            val c = idle[--idleCount]!!
            idle[idleCount] = null
            if (!c.isUsable()) continue
            client.remainingRequests--
            scheduled++
            if (now - due > LoadClient.LATE_NANOS) stats.late++
            c.send(due)
            // Keep one spare connection ready while under the cap, so a request is not late by a connect (a handshake
            // queued behind the server's work when it is busy), as wrk2 pre-opens its connections.
            if (idleCount == 0 && connecting == 0 && opened < connections) openAnother()
        }
    }

    /** A request [due] that waited longer than the timeout for a connection: never sent, counted as dropped. */
    private fun drop(now: Long, due: Long) {
        scheduled++
        stats.dropped++
        val ms = client.settings.timeout.toMillis()
        val rateText = LoadClient.rateText(rate)
        client.failures.add(
            FailureKind.DROPPED,
            "not sent within $ms ms of its scheduled time: all " +
                "$connections connections were busy (the server is slower than -p rate=$rateText; " +
                "raise -p concurrency or lower the rate)",
        )
        stats.unanswered(now - due)
    }

    /** No idle connection: one is opened per waiting request, up to [connections] (then the cap was reached). */
    private fun openForWaiting(now: Long) {
        val waiting = ((now - scheduleStart - phaseNanos) / intervalNanos).toLong() + 1 - scheduled
        while (opened < connections && connecting < waiting) openAnother()
        if (opened >= connections) stats.capReached = true
    }

    /** One more connection, in the next unused slot. */
    private fun openAnother() {
        connecting++
        client.slots.connect(opened++)
    }

    /**
     * Nothing was sent while JMH was between iterations: the schedule resumes where it stopped, shifted by the pause,
     * so the pause is never counted as lateness and a real backlog is kept. The first iteration starts it.
     */
    override fun beginIteration(now: Long) {
        if (scheduleRunning) {
            scheduleStart += now - pausedAt
        } else {
            scheduleStart = now
            scheduled = 0
            scheduleRunning = true
        }
        scheduledAtStart = scheduled
    }

    /** Sends what is due by the end, then stops the schedule's clock until the next iteration. */
    override fun endIteration(now: Long) {
        dispatchDue(now)
        client.slots.flushWrites()
        pausedAt = now
    }

    override val scheduledInIteration: Long get() = scheduled - scheduledAtStart
}
