package serverbench.metrics

import org.openjdk.jmh.infra.BenchmarkParams
import org.openjdk.jmh.infra.IterationParams
import org.openjdk.jmh.profile.InternalProfiler
import org.openjdk.jmh.results.AggregationPolicy
import org.openjdk.jmh.results.IterationResult
import org.openjdk.jmh.results.Result
import org.openjdk.jmh.results.ScalarResult
import org.openjdk.jmh.runner.IterationType
import serverbench.client.ClientReport
import serverbench.client.FailureKind

/**
 * Turns what the load client and the [ResourceMeter] measured in an iteration into JMH secondary results:
 * `latency.*` (ms, from every request), `errors` (and `errors.<kind>` when non-zero), `reconnects` (when non-zero),
 * connections and TLS handshakes per second ([ConnectionFigures]),
 * `client.cpu` / `client.cpuPerReq` (cores, all client threads; µs per successful request), with a target elsewhere
 * also `client.processCpu` / `client.processCpuPerReq` (this whole JVM: GC and JIT too), `client.threads` (and
 * with more than one, `client.threadSpread`: how unevenly they carried the load), `server.cpu` / `server.cpuPerReq`
 * (the rest of the JVM: cores; ms per successful request), `heap.allocPerReq` (bytes), `threads.peak`,
 * `server.inFlightMax` (requests the server held at once; with the server probe on), `bytes.inPerReq` /
 * `bytes.outPerReq` (requests with a body: bytes the server read and wrote per successful request), `littlesLaw`
 * (closed loop) or `latency.uncorrected.*`, `openLoop.late` / `openLoop.dropped` / `openLoop.connections` (open
 * loop), the [Guards]' `warning.*` flags, and for leaks over long runs `fds.open` (file descriptors open at the
 * iteration's end) and `heap.afterGc` (MB live after the last collection).
 *
 * The launcher adds this profiler to every run, so users get these figures without a `-prof` flag. It reports
 * measurement iterations only: warmup figures never reach the results.
 */
class LoadMetricsProfiler : InternalProfiler {
    override fun getDescription() =
        "serverbench load-client metrics (latency percentiles, errors, client CPU); always on"

    override fun beforeIteration(benchmarkParams: BenchmarkParams, iterationParams: IterationParams) {
        ClientReports.take() // nothing from an earlier iteration may be attributed to this one
    }

    override fun afterIteration(
        benchmarkParams: BenchmarkParams,
        iterationParams: IterationParams,
        result: IterationResult,
    ): Collection<Result<*>> {
        val report = ClientReports.take() ?: return emptyList()
        if (iterationParams.type != IterationType.MEASUREMENT) return emptyList()
        return results(report)
    }

    companion object {
        fun results(report: IterationReport): List<Result<*>> {
            val client = report.client
            val out = ArrayList<Result<*>>()
            if (client.latencyMicros.totalCount > 0) out += LatencyResult(client.latencyMicros)
            client.uncorrectedLatencyMicros?.takeIf { it.totalCount > 0 }?.let {
                out +=
                    LatencyResult(it, LatencyResult.UNCORRECTED_PREFIX)
            }
            if (client.openLoop) {
                out += ScalarResult("openLoop.late", client.late.toDouble(), "count", AggregationPolicy.SUM)
                out += ScalarResult("openLoop.dropped", client.dropped.toDouble(), "count", AggregationPolicy.SUM)
                out +=
                    ScalarResult(
                        "openLoop.connections",
                        client.maxConnections.toDouble(),
                        "connections",
                        AggregationPolicy.MAX,
                    )
            } else {
                // Pooled over the iterations where it is defined (a ScalarResult would be averaged with JMH's zeros).
                Guards.littlesLawTerms(report)?.let { (latencySeconds, connectionSeconds) ->
                    out += RatioResult("littlesLaw", "ratio", latencySeconds, connectionSeconds)
                }
            }
            for ((guard, warning) in report.guards) {
                out += ScalarResult("warning.$guard", if (warning != null) 1.0 else 0.0, "share", AggregationPolicy.AVG)
            }
            // Run-level: reported once per fork, on its last iteration; MAX ignores the zeros JMH fills in elsewhere.
            // Too few iterations get no verdict, so no flag either: 0 would read as steady, 1 as not.
            val notSteady = when (report.steadiness) {
                Steadiness.Verdict.Steady -> 0.0
                is Steadiness.Verdict.NotSteady -> report.steadiness.flag
                else -> null
            }
            if (notSteady != null) {
                out += ScalarResult("warning.${Guards.NOT_STEADY}", notSteady, "flag", AggregationPolicy.MAX)
            }
            if (report.warmupSeconds >=
                0
            ) {
                out += ScalarResult("warmup.seconds", report.warmupSeconds, "s", AggregationPolicy.MAX)
            }
            for (f in report.extra) {
                val policy = if (f.max) AggregationPolicy.MAX else AggregationPolicy.AVG
                out += ScalarResult(f.name, f.value, f.unit, policy)
            }
            out += ScalarResult("errors", client.failures.total.toDouble(), "count", AggregationPolicy.SUM)
            for (kind in FailureKind.entries) {
                val n = client.failures[kind]
                if (n >
                    0
                ) {
                    out +=
                        ScalarResult("errors.${kind.name.lowercase()}", n.toDouble(), "count", AggregationPolicy.SUM)
                }
            }
            if (client.unanswered > 0) {
                out += ScalarResult("unanswered", client.unanswered.toDouble(), "requests", AggregationPolicy.MAX)
            }
            if (client.opsWithoutSuccess > 0) {
                // JMH counted these calls as operations: the score is high by this many ÷ the iteration time.
                out +=
                    ScalarResult(
                        "client.opsWithoutSuccess",
                        client.opsWithoutSuccess.toDouble(),
                        "count",
                        AggregationPolicy.SUM,
                    )
            }
            if (client.reconnects > 0) {
                out += ScalarResult("reconnects", client.reconnects.toDouble(), "count", AggregationPolicy.SUM)
            }
            out += ConnectionFigures.results(client)
            val wall = client.wallNanos.toDouble()
            val requests = client.successes.toDouble()
            out += RatioResult("client.cpu", "cores", client.clientCpuNanos.toDouble(), wall)
            out += RatioResult("client.cpuPerReq", "us", client.clientCpuNanos.toDouble(), requests, scale = 1e-3)
            report.resources?.clientProcessCpuNanos?.takeIf { it >= 0 }?.let { own ->
                // The client's whole process, as wrk's, h2load's or Hyperfoil's CPU is measured (docs/more-load.md).
                out += RatioResult("client.processCpu", "cores", own.toDouble(), wall)
                out += RatioResult("client.processCpuPerReq", "us", own.toDouble(), requests, scale = 1e-3)
            }
            out += ScalarResult("client.threads", client.threads.size.toDouble(), "threads", AggregationPolicy.MAX)
            if (client.threads.size > 1) {
                out +=
                    ScalarResult(
                        "client.threadSpread",
                        ClientReport.spread(
                            client.threads.map {
                                it.successes
                            },
                        ),
                        "share",
                        AggregationPolicy.MAX,
                    )
            }
            if (client.requestBytes > 0) {
                // Requests with a body (the JSON family): what the server read and wrote per successful request.
                val own = client.threads.sumOf { it.successes }.toDouble()
                val h2 = client.h2Frames
                if (h2 == null) {
                    out +=
                        ScalarResult("bytes.inPerReq", client.requestBytes.toDouble(), "bytes", AggregationPolicy.AVG)
                    out += RatioResult("bytes.outPerReq", "bytes", client.responseBytes.toDouble(), own)
                } else {
                    // Every frame either way (control frames and failed streams' too), over the successes.
                    out += RatioResult("bytes.inPerReq", "bytes", h2.written.toDouble(), own)
                    out += RatioResult("bytes.outPerReq", "bytes", h2.read.toDouble(), own)
                }
            }
            val resources = report.resources ?: return out
            if (resources.remoteServer != null) {
                // The server-side figures below were read from a target's own process (docs/scaling-the-load.md,
                // "A server on its own host"); no client thread runs there, so nothing is subtracted.
                out += ScalarResult("server.remote", 1.0, "flag", AggregationPolicy.MAX)
            }
            if (resources.processCpuNanos >= 0) {
                val inProcessClient = if (resources.remoteServer == null) client.clientCpuNanos else 0L
                val server =
                    (resources.processCpuNanos - inProcessClient - resources.outsideCpuNanos).coerceAtLeast(
                        0,
                    ).toDouble()
                out += RatioResult("server.cpu", "cores", server, wall)
                out += RatioResult("server.cpuPerReq", "ms", server, requests, scale = 1e-6)
                report.budget?.cpus?.let { cpus ->
                    out +=
                        RatioResult("server.cpuOfBudget", "share", server, wall * cpus)
                }
            }
            report.budget?.throttling?.let { t ->
                // Shares of CFS periods, and time throttled per second of wall: what the quota took from the server.
                out += RatioResult("server.throttled", "share", t.throttledPeriods.toDouble(), t.periods.toDouble())
                out += RatioResult("server.throttledMs", "ms/s", t.throttledNanos.toDouble(), wall, scale = 1e3)
            }
            if (resources.allocatedBytes >= 0) {
                val allocated = (resources.allocatedBytes - resources.outsideAllocatedBytes).coerceAtLeast(0)
                out += RatioResult("heap.allocPerReq", "bytes", allocated.toDouble(), requests)
            }
            resources.allocLowerBound?.let {
                out += ScalarResult("heap.allocLowerBound", if (it) 1.0 else 0.0, "share", AggregationPolicy.AVG)
            }
            out += ScalarResult("threads.peak", resources.peakThreads.toDouble(), "threads", AggregationPolicy.MAX)
            if (resources.inFlightMax >= 0) {
                out +=
                    ScalarResult(
                        "server.inFlightMax",
                        resources.inFlightMax.toDouble(),
                        "requests",
                        AggregationPolicy.MAX,
                    )
            }
            // A long run (a soak) shows a leak as growth of these from iteration to iteration (JSON rawData).
            if (resources.openFds >=
                0
            ) {
                out += ScalarResult("fds.open", resources.openFds.toDouble(), "fds", AggregationPolicy.MAX)
            }
            if (resources.heapAfterGcBytes >= 0) {
                out += ScalarResult("heap.afterGc", resources.heapAfterGcBytes / 1048576.0, "MB", AggregationPolicy.MAX)
            }
            return out
        }
    }
}
