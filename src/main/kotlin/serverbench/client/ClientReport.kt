package serverbench.client

import org.HdrHistogram.Histogram

/** What the client measured in one iteration (assembled by [IterationStats]). */
class ClientReport(
    /** Closed loop: from the send. Open loop: from the intended send (corrected for coordinated omission). */
    val latencyMicros: Histogram,
    val successes: Long,
    val failures: FailureCounts,
    val reconnects: Long,
    val clientCpuNanos: Long,
    val wallNanos: Long,
    /**
     * Responses that arrived between iterations, read at the start of this one and not counted (see
     * [LoadClient.beginIteration]).
     */
    val discardedAtStart: Long = 0,
    /** Open loop only: latency from the actual send. */
    val uncorrectedLatencyMicros: Histogram? = null,
    /** Requests per second scheduled (open loop), 0 in closed loop. */
    val rate: Double = 0.0,
    /** Connections: the count (closed loop) or the cap (open loop). */
    val connections: Int = 0,
    /** Most connections open at once in the iteration. */
    val maxConnections: Int = 0,
    /** Open loop: requests sent more than [LoadClient.LATE_NANOS] after their scheduled time. */
    val late: Long = 0,
    /** Open loop: requests never sent because no connection was free within the timeout (also counted as failures). */
    val dropped: Long = 0,
    /** Open loop: requests whose scheduled time came in the iteration and that went out (or were dropped). */
    val scheduled: Long = 0,
    /** Open loop: a due request found all [connections] busy at least once. */
    val capReached: Boolean = false,
    /**
     * Requests sent before the iteration, still unanswered at its end, and older than both the iteration and 3 × its
     * p99: starved, not just slow. Their wait is in no latency figure.
     */
    val unanswered: Int = 0,
    val oldestUnansweredNanos: Long = 0,
) {
    val openLoop: Boolean get() = rate > 0
}
