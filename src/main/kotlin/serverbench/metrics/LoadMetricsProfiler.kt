package serverbench.metrics

import org.openjdk.jmh.infra.BenchmarkParams
import org.openjdk.jmh.infra.IterationParams
import org.openjdk.jmh.profile.InternalProfiler
import org.openjdk.jmh.results.IterationResult
import org.openjdk.jmh.results.Result
import org.openjdk.jmh.runner.IterationType

/**
 * Hands what the load client and the [ResourceMeter] measured in an iteration to [IterationResults], which writes
 * JMH secondary results:
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
        fun results(report: IterationReport): List<Result<*>> = IterationResults.of(report)
    }
}
