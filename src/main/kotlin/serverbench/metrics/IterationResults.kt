package serverbench.metrics

import org.openjdk.jmh.results.Result
import serverbench.client.ClientReport
import serverbench.metrics.MetricCatalogue as M

/**
 * One measured iteration's [IterationReport] as JMH secondary results, each named, unitised and folded as its
 * [MetricCatalogue] entry says; one function per idea, in the order the results are written.
 */
object IterationResults {
    fun of(report: IterationReport): List<Result<*>> {
        val out = ArrayList<Result<*>>()
        out += latency(report.client)
        out += loop(report)
        out += verdicts(report)
        report.extra.forEach { out += it.metric.scalar(it.value) }
        out += failures(report.client)
        out += ConnectionFigures.results(report.client)
        out += clientCost(report)
        out += bodyBytes(report.client)
        val resources = report.resources ?: return out
        out += serverCpu(report, resources)
        out += serverMemory(report.client, resources)
        if (resources.gcPauseNanos >= 0) {
            // Per second of wall, as the throttled time: a sum over the iteration would grow with its length.
            out += M.GC_PAUSE.ratio(resources.gcPauseNanos.toDouble(), report.client.wallNanos.toDouble(), scale = 1e3)
        }
        return out
    }

    private fun latency(client: ClientReport): List<Result<*>> = listOfNotNull(
        client.latencyMicros.takeIf { it.totalCount > 0 }?.let { LatencyResult(it) },
        client.uncorrectedLatencyMicros?.takeIf { it.totalCount > 0 }?.let {
            LatencyResult(it, LatencyResult.UNCORRECTED_PREFIX)
        },
    )

    /** Open loop: how the schedule went; closed loop: Little's law, pooled over the iterations that define it. */
    private fun loop(report: IterationReport): List<Result<*>> {
        val client = report.client
        if (client.openLoop) {
            return listOf(
                M.OPEN_LOOP_LATE.scalar(client.late.toDouble()),
                M.OPEN_LOOP_DROPPED.scalar(client.dropped.toDouble()),
                M.OPEN_LOOP_CONNECTIONS.scalar(client.maxConnections.toDouble()),
            )
        }
        // A ScalarResult would be averaged with JMH's zeros.
        return listOfNotNull(
            Guards.littlesLawTerms(report)?.let { (latency, connections) -> M.LITTLES_LAW.ratio(latency, connections) },
        )
    }

    /** The guards' flags, the run's steadiness verdict and how long it warmed up. */
    private fun verdicts(report: IterationReport): List<Result<*>> {
        val out = ArrayList<Result<*>>()
        for ((guard, warning) in report.guards) {
            out += M.WARNINGS.getValue(guard).scalar(if (warning != null) 1.0 else 0.0)
        }
        // Too few iterations get no verdict, so no flag either: 0 would read as steady, 1 as not.
        val notSteady = when (report.steadiness) {
            Steadiness.Verdict.Steady -> 0.0
            is Steadiness.Verdict.NotSteady -> report.steadiness.flag
            else -> null
        }
        if (notSteady != null) out += M.NOT_STEADY.scalar(notSteady)
        if (report.warmupSeconds >= 0) out += M.WARMUP_SECONDS.scalar(report.warmupSeconds)
        return out
    }

    private fun failures(client: ClientReport): List<Result<*>> {
        val out = ArrayList<Result<*>>()
        out += M.ERRORS.scalar(client.failures.total.toDouble())
        for ((kind, metric) in M.ERRORS_BY_KIND) {
            val n = client.failures[kind]
            if (n > 0) out += metric.scalar(n.toDouble())
        }
        if (client.unanswered > 0) out += M.UNANSWERED.scalar(client.unanswered.toDouble())
        // JMH counted these calls as operations: the score is high by this many ÷ the iteration time.
        if (client.opsWithoutSuccess > 0) out += M.OPS_WITHOUT_SUCCESS.scalar(client.opsWithoutSuccess.toDouble())
        if (client.reconnects > 0) out += M.RECONNECTS.scalar(client.reconnects.toDouble())
        return out
    }

    /** The load client's CPU (its threads', and with a target elsewhere its whole process's) and its threads. */
    private fun clientCost(report: IterationReport): List<Result<*>> {
        val client = report.client
        val wall = client.wallNanos.toDouble()
        val requests = client.successes.toDouble()
        val out = ArrayList<Result<*>>()
        out += M.CLIENT_CPU.ratio(client.clientCpuNanos.toDouble(), wall)
        out += M.CLIENT_CPU_PER_REQ.ratio(client.clientCpuNanos.toDouble(), requests, scale = 1e-3)
        report.resources?.clientProcessCpuNanos?.takeIf { it >= 0 }?.let { own ->
            // The client's whole process, as wrk's, h2load's or Hyperfoil's CPU is measured (docs/more-load.md).
            out += M.CLIENT_PROCESS_CPU.ratio(own.toDouble(), wall)
            out += M.CLIENT_PROCESS_CPU_PER_REQ.ratio(own.toDouble(), requests, scale = 1e-3)
        }
        out += M.CLIENT_THREADS.scalar(client.threads.size.toDouble())
        if (client.threads.size > 1) {
            out += M.CLIENT_THREAD_SPREAD.scalar(ClientReport.spread(client.threads.map { it.successes }))
        }
        return out
    }

    /** Requests with a body (the JSON family): what the server read and wrote per successful request. */
    private fun bodyBytes(client: ClientReport): List<Result<*>> {
        if (client.requestBytes <= 0) return emptyList()
        val own = client.threads.sumOf { it.successes }.toDouble()
        val h2 = client.h2Frames
        return if (h2 == null) {
            listOf(
                M.BYTES_IN_PER_REQ.scalar(client.requestBytes.toDouble()),
                M.BYTES_OUT_PER_REQ.ratio(client.responseBytes.toDouble(), own),
            )
        } else {
            // Every frame either way (control frames and failed streams' too), over the successes.
            listOf(
                M.BYTES_IN_PER_REQ_H2.ratio(h2.written.toDouble(), own),
                M.BYTES_OUT_PER_REQ.ratio(h2.read.toDouble(), own),
            )
        }
    }

    /** The server's CPU: the JVM's but the client's and the outside's, and what a CPU budget's quota took. */
    private fun serverCpu(report: IterationReport, resources: ResourceReport): List<Result<*>> {
        val client = report.client
        val wall = client.wallNanos.toDouble()
        val out = ArrayList<Result<*>>()
        if (resources.remoteServer != null) {
            // The server-side figures below were read from a target's own process (docs/scaling-the-load.md,
            // "A server on its own host"); no client thread runs there, so nothing is subtracted.
            out += M.SERVER_REMOTE.scalar(1.0)
        }
        if (resources.processCpuNanos >= 0) {
            val inProcessClient = if (resources.remoteServer == null) client.clientCpuNanos else 0L
            val server = (resources.processCpuNanos - inProcessClient - resources.outsideCpuNanos)
                .coerceAtLeast(0).toDouble()
            out += M.SERVER_CPU.ratio(server, wall)
            out += M.SERVER_CPU_PER_REQ.ratio(server, client.successes.toDouble(), scale = 1e-6)
            report.budget?.cpus?.let { cpus -> out += M.SERVER_CPU_OF_BUDGET.ratio(server, wall * cpus) }
        }
        report.budget?.throttling?.let { t ->
            // Shares of CFS periods, and time throttled per second of wall: what the quota took from the server.
            out += M.THROTTLED.ratio(t.throttledPeriods.toDouble(), t.periods.toDouble())
            out += M.THROTTLED_MS.ratio(t.throttledNanos.toDouble(), wall, scale = 1e3)
        }
        return out
    }

    /** Allocation, threads, requests held, and (a soak's leaks, as growth from iteration to iteration) fds and heap. */
    private fun serverMemory(client: ClientReport, resources: ResourceReport): List<Result<*>> {
        val out = ArrayList<Result<*>>()
        if (resources.allocatedBytes >= 0) {
            val allocated = (resources.allocatedBytes - resources.outsideAllocatedBytes).coerceAtLeast(0)
            out += M.ALLOC_PER_REQ.ratio(allocated.toDouble(), client.successes.toDouble())
        }
        resources.allocLowerBound?.let { out += M.ALLOC_LOWER_BOUND.scalar(if (it) 1.0 else 0.0) }
        // A target that reports no thread figure says -1, never a peak of 0 threads.
        if (resources.peakThreads >= 0) out += M.THREADS_PEAK.scalar(resources.peakThreads.toDouble())
        if (resources.inFlightMax >= 0) out += M.IN_FLIGHT_MAX.scalar(resources.inFlightMax.toDouble())
        if (resources.openFds >= 0) out += M.FDS_OPEN.scalar(resources.openFds.toDouble())
        if (resources.heapAfterGcBytes >= 0) out += M.HEAP_AFTER_GC.scalar(resources.heapAfterGcBytes / 1048576.0)
        return out
    }
}
