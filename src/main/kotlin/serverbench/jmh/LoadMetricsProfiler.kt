package serverbench.jmh

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
import java.util.concurrent.atomic.AtomicReference

/**
 * Turns what the load client measured in an iteration into JMH secondary results: `latency.*` (ms, from every
 * request), `errors` (and `errors.<kind>` when non-zero), `client.cpu` (cores the client thread used) and
 * `client.cpuPerReq` (client CPU µs per successful request).
 *
 * The launcher adds this profiler to every run, so users get these figures without a `-prof` flag. It reports
 * measurement iterations only: warmup figures never reach the results.
 */
class LoadMetricsProfiler : InternalProfiler {
    override fun getDescription() = "serverbench load-client metrics (latency percentiles, errors, client CPU); always on"

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
        fun results(report: ClientReport): List<Result<*>> {
            val out = ArrayList<Result<*>>()
            if (report.latencyMicros.totalCount > 0) out += LatencyResult(report.latencyMicros)
            out += ScalarResult("errors", report.failures.total.toDouble(), "count", AggregationPolicy.SUM)
            for (kind in FailureKind.entries) {
                val n = report.failures[kind]
                if (n > 0) out += ScalarResult("errors.${kind.name.lowercase()}", n.toDouble(), "count", AggregationPolicy.SUM)
            }
            if (report.reconnects > 0) {
                out += ScalarResult("reconnects", report.reconnects.toDouble(), "count", AggregationPolicy.SUM)
            }
            out += RatioResult("client.cpu", "cores", report.clientCpuNanos.toDouble(), report.wallNanos.toDouble())
            out += RatioResult("client.cpuPerReq", "us", report.clientCpuNanos.toDouble(), report.successes.toDouble(), scale = 1e-3)
            return out
        }
    }
}

/** Hand-over from the benchmark's iteration teardown (benchmark thread) to [LoadMetricsProfiler] (JMH's thread). */
object ClientReports {
    private val last = AtomicReference<ClientReport?>()

    fun publish(report: ClientReport) = last.set(report)

    fun take(): ClientReport? = last.getAndSet(null)
}
