package serverbench.client

import org.HdrHistogram.Histogram
import java.lang.management.ManagementFactory
import javax.net.ssl.SSLSession

/**
 * What a [LoadClient] measures in one iteration, kept apart from the transport that produces it (as Hyperfoil keeps
 * its statistics in a snapshot with reset/add): reset by [LoadClient.beginIteration], added to as requests end (without
 * allocating), and assembled into a [ClientReport] by [report].
 */
internal class IterationStats(
    private val rate: Double,
    private val connections: Int,
    /** Bytes of one request on the wire when it carries a body (reported as `bytes.inPerReq`); null: not reported. */
    private val requestBytes: Int? = null,
    /** A mix's entries, whose successes are counted apart; 0 for a single request (its count is [successes]). */
    entryCount: Int = 0,
) {
    private val openLoop = rate > 0

    /** Closed loop: from the send. Open loop: from the intended send (corrected for coordinated omission). */
    private val latencyMicros = Histogram(LoadClient.HIGHEST_TRACKABLE_MICROS, 3)

    /** Open loop only: latency from the actual send. */
    private val uncorrectedMicros = Histogram(LoadClient.HIGHEST_TRACKABLE_MICROS, 3)
    val failures = FailureCounts()
    var successes = 0L
        private set

    /** A mix's successes by entry; null for a single request, which pays no count of its own. */
    private val entrySuccesses: LongArray? = if (entryCount > 0) LongArray(entryCount) else null

    /** Bytes of the successful responses, heads included. */
    private var responseBytes = 0L
    var reconnects = 0L

    /** Connections opened (TCP), and TLS handshakes completed full or resumed ([TlsHandshakes]). */
    var connects = 0L
    var tlsFull = 0L
    var tlsResumed = 0L

    /** `-p protocol=h2`: bytes of HTTP/2 frames written and read (before TLS), HPACK-encoded headers included. */
    var h2Written = 0L
    var h2Read = 0L

    /** A completed TLS handshake, full or resumed ([TlsHandshakes]); a context not from ClientTls counts as neither. */
    fun tlsHandshake(session: SSLSession) {
        when (TlsHandshakes.kind(session)) {
            TlsHandshakes.Kind.FULL -> tlsFull++
            TlsHandshakes.Kind.RESUMED -> tlsResumed++
            TlsHandshakes.Kind.UNKNOWN -> {} // tests check the sum
        }
    }

    /** Open loop: requests sent late, requests dropped, and whether a due request found every connection busy. */
    var late = 0L
    var dropped = 0L
    var capReached = false
    private var maxConnections = 0

    /** Calls of [LoadClient.next] that returned without a success (JMH's timer late): JMH counted them all the same. */
    private var opsWithoutSuccess = 0L

    /** Counts a call that returns without a success at [now]; returns [now], the late window's new end. */
    fun lateCall(now: Long): Long {
        opsWithoutSuccess++
        return now
    }

    /** Set while [LoadClient.beginIteration] reads the responses that arrived between iterations; see there. */
    private var discarding = false
    private var discarded = 0L
    private var discardedAtStart = 0L
    private val threadMx = ManagementFactory.getThreadMXBean()
    private var cpuStart = 0L
    var wallStart = 0L
        private set

    /**
     * Starts reading what arrived between iterations: the counts are reset first, since a failure read now happened in
     * no earlier iteration's count, so it is this one's; a success read now is discarded (see [succeeded]).
     */
    fun startDiscarding() {
        failures.reset()
        latencyMicros.reset()
        uncorrectedMicros.reset()
        discarding = true
    }

    fun stopDiscarding() {
        discarding = false
    }

    /** Starts the iteration's counts and clocks, after the discarded responses, with [active] connections open. */
    fun begin(active: Int) {
        successes = 0
        entrySuccesses?.fill(0)
        responseBytes = 0
        opsWithoutSuccess = 0
        reconnects = 0
        connects = 0
        tlsFull = 0
        tlsResumed = 0
        h2Written = 0
        h2Read = 0
        late = 0
        dropped = 0
        capReached = false
        maxConnections = active
        discardedAtStart = discarded
        discarded = 0
        wallStart = System.nanoTime()
        cpuStart = threadMx.currentThreadCpuTime
    }

    /** A success of [bytes] on the wire for [entry], unless it is read while discarding: returns whether it counts. */
    fun succeeded(latencyNanos: Long, uncorrectedNanos: Long, bytes: Long = 0, entry: Int = 0): Boolean {
        if (discarding) {
            discarded++
            return false
        }
        latencyMicros.recordValue(micros(latencyNanos))
        if (openLoop) uncorrectedMicros.recordValue(micros(uncorrectedNanos))
        successes++
        if (entrySuccesses != null) entrySuccesses[entry]++
        responseBytes += bytes
        return true
    }

    /**
     * Open loop: a request that timed out or was dropped (tolerated with maxErrors > 0) enters the corrected histogram
     * at the time it was given up, as wrk2 does, so the tail is not cut by the requests that never completed.
     */
    fun unanswered(sinceDueNanos: Long) {
        if (openLoop && !discarding) latencyMicros.recordValue(micros(sinceDueNanos))
    }

    fun connectionsOpen(active: Int) {
        if (active > maxConnections) maxConnections = active
    }

    /**
     * The iteration's figures at [now]: [slots] are the client's connections, [active] of them open; [successes] is
     * the count to report (JMH's, within a measurement window) and [scheduled] the requests the schedule sent.
     */
    fun report(now: Long, slots: Array<out RequestSlot?>, active: Int, successes: Long, scheduled: Long): ClientReport {
        // Requests sent before this iteration and still unanswered far beyond what the answered ones took: a closed
        // loop's figures leave them out, so a server that starves some connections would look better than it is.
        val p99Nanos = if (latencyMicros.totalCount > 0) latencyMicros.getValueAtPercentile(99.0) * 1000 else 0L
        val stuckAfter = maxOf(now - wallStart, 3 * p99Nanos)
        var unanswered = 0
        var oldest = 0L
        for (c in slots) {
            if (c == null || !c.inFlight) continue
            val age = now - c.intendedAt
            if (c.intendedAt - wallStart < 0 && age > stuckAfter) {
                unanswered++
                oldest = maxOf(oldest, age)
            }
        }
        val cpu = threadMx.currentThreadCpuTime - cpuStart
        val wall = System.nanoTime() - wallStart
        return ClientReport(
            latencyMicros = latencyMicros.copy(),
            unanswered = unanswered,
            oldestUnansweredNanos = oldest,
            uncorrectedLatencyMicros = if (openLoop) uncorrectedMicros.copy() else null,
            rate = rate,
            connections = connections,
            maxConnections = maxOf(maxConnections, active),
            late = late,
            dropped = dropped,
            scheduled = scheduled,
            capReached = capReached,
            successes = successes,
            failures = failures.copy(),
            reconnects = reconnects,
            handshakes = Handshakes(connects, tlsFull, tlsResumed),
            clientCpuNanos = cpu,
            wallNanos = wall,
            discardedAtStart = discardedAtStart,
            opsWithoutSuccess = opsWithoutSuccess,
            requestBytes = requestBytes?.toLong() ?: 0,
            responseBytes = responseBytes,
            // Only an h2 connection counts frames, and it reads something (SETTINGS, an answer) whenever it runs.
            h2Frames = if (h2Read > 0 || h2Written > 0) H2Bytes(h2Written, h2Read) else null,
            // This thread's own completions: [successes] may be JMH's count of every thread's.
            threads = listOf(ClientReport.ThreadShare(this.successes, cpu, wall, connections)),
            entrySuccesses = entrySuccesses?.toList() ?: listOf(this.successes),
        )
    }

    private fun micros(nanos: Long) = (nanos / 1000).coerceIn(1, LoadClient.HIGHEST_TRACKABLE_MICROS)
}
