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
    /**
     * Calls of [LoadClient.next] that returned without a success because JMH's timer woke more than 10 ms after the
     * window: JMH's operation count is [successes] + this.
     */
    val opsWithoutSuccess: Long = 0,
    /** Bytes of one request on the wire when requests carry a body; 0 for bodiless requests (not reported). */
    val requestBytes: Long = 0,
    /** Bytes of this report's own successful responses ([ThreadShare.successes]), heads included (HTTP/1.1). */
    val responseBytes: Long = 0,
    /** `-p protocol=h2`: every HTTP/2 frame's bytes written and read in the iteration; null on HTTP/1.1. */
    val h2Frames: H2Bytes? = null,
    /** Each client thread's own figures, the benchmark thread's first ([LoadGroup]); one entry with one thread. */
    threads: List<ThreadShare>? = null,
    /** Connections opened and TLS handshakes in the iteration (`-p requestsPerConnection`, docs/tls.md). */
    val handshakes: Handshakes = Handshakes(),
    /**
     * Successes by entry of the [RequestMix], in its order: the mix as achieved. Counted by the client threads as they
     * completed (each [ThreadShare.successes], summed), not JMH's count; one entry for a single request.
     */
    val entrySuccesses: List<Long> = emptyList(),
) {
    val openLoop: Boolean get() = rate > 0

    val threads: List<ThreadShare> = threads ?: listOf(ThreadShare(successes, clientCpuNanos, wallNanos, connections))

    /** One client thread's part of an iteration: what it completed, the CPU it used, over what wall time. */
    class ThreadShare(val successes: Long, val cpuNanos: Long, val wallNanos: Long, val connections: Int) {
        val cores: Double get() = if (wallNanos > 0) cpuNanos.toDouble() / wallNanos else 0.0
    }

    companion object {
        /** (most − fewest) ÷ mean of the client threads' own successes [counts]: 0 when they carried equal load. */
        fun spread(counts: List<Long>): Double {
            val mean = counts.average()
            return if (mean > 0) (counts.max() - counts.min()) / mean else 0.0
        }

        /**
         * The benchmark thread's report [own] (whose [successes] already count every thread's, as JMH did) and the
         * other threads' [others], as one: histograms merged, counts summed, the worst of each guard's input.
         */
        fun merge(own: ClientReport, others: List<ClientReport>): ClientReport {
            val all = listOf(own) + others
            val latency = own.latencyMicros.copy().also { h -> others.forEach { h.add(it.latencyMicros) } }
            val uncorrected = own.uncorrectedLatencyMicros?.copy()?.also { h ->
                others.forEach { o -> o.uncorrectedLatencyMicros?.let { h.add(it) } }
            }
            val failures = own.failures.copy().also { f -> others.forEach { f.addAll(it.failures) } }
            return ClientReport(
                latencyMicros = latency,
                successes = own.successes,
                failures = failures,
                reconnects = all.sumOf { it.reconnects },
                clientCpuNanos = all.sumOf { it.clientCpuNanos },
                wallNanos = own.wallNanos,
                discardedAtStart = all.sumOf { it.discardedAtStart },
                opsWithoutSuccess = own.opsWithoutSuccess,
                requestBytes = own.requestBytes,
                responseBytes = all.sumOf { it.responseBytes },
                h2Frames = if (own.h2Frames == null) {
                    null
                } else {
                    H2Bytes(all.sumOf { it.h2Frames?.written ?: 0 }, all.sumOf { it.h2Frames?.read ?: 0 })
                },
                uncorrectedLatencyMicros = uncorrected,
                rate = all.sumOf { it.rate },
                connections = all.sumOf { it.connections },
                maxConnections = all.sumOf { it.maxConnections },
                late = all.sumOf { it.late },
                dropped = all.sumOf { it.dropped },
                scheduled = all.sumOf { it.scheduled },
                capReached = all.any { it.capReached },
                unanswered = all.sumOf { it.unanswered },
                oldestUnansweredNanos = all.maxOf { it.oldestUnansweredNanos },
                threads = all.flatMap { it.threads },
                handshakes = all.map { it.handshakes }.reduce(Handshakes::plus),
                entrySuccesses = own.entrySuccesses.indices.map { i ->
                    all.sumOf { it.entrySuccesses.getOrElse(i) { 0 } }
                },
            )
        }
    }
}

/**
 * HTTP/2 frames' bytes in an iteration (`-p protocol=h2`), as the TLS layer sees them: every frame the client [written]
 * (HEADERS with their HPACK block, DATA, and the connection's SETTINGS, WINDOW_UPDATE, PING, RST_STREAM) and [read].
 */
class H2Bytes(val written: Long, val read: Long)
