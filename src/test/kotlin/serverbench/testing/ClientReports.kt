package serverbench.testing

import org.HdrHistogram.Histogram
import serverbench.client.ClientReport
import serverbench.client.FailureCounts
import serverbench.client.Handshakes
import serverbench.client.LoadClient

/*
 * What the load client reports of one iteration ([ClientReport]), as the metrics and client tests feed it to the
 * profiler's figures: each of them built the same closed-loop second of requests with its own copy of the call.
 */

/** A latency histogram in µs as the load client keeps one (up to an hour, 3 digits): [counts] are µs to requests. */
fun latencies(vararg counts: Pair<Long, Long>): Histogram = Histogram(LoadClient.HIGHEST_TRACKABLE_MICROS, 3).apply {
    counts.forEach { (micros, n) -> recordValueWithCount(micros, n) }
}

/**
 * A closed-loop iteration of one second: every request in [latencyMicros] a success unless [successes] says otherwise,
 * no failures, no reconnects, the client's threads at half a second of CPU. Name what a test is about.
 */
fun clientReport(
    latencyMicros: Histogram,
    successes: Long = latencyMicros.totalCount,
    failures: FailureCounts = FailureCounts(),
    reconnects: Long = 0,
    clientCpuNanos: Long = 500_000_000,
    wallNanos: Long = 1_000_000_000,
    connections: Int = 0,
    maxConnections: Int = 0,
    handshakes: Handshakes = Handshakes(),
) = ClientReport(
    latencyMicros,
    successes,
    failures,
    reconnects,
    clientCpuNanos,
    wallNanos,
    connections = connections,
    maxConnections = maxConnections,
    handshakes = handshakes,
)
