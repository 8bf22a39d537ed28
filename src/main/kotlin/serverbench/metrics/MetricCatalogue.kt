package serverbench.metrics

import serverbench.client.FailureKind
import serverbench.metrics.MetricSpec.Better.HIGHER
import serverbench.metrics.MetricSpec.Better.LOWER
import serverbench.metrics.MetricSpec.Column
import serverbench.metrics.MetricSpec.Headline
import serverbench.metrics.MetricSpec.Merge.AVG
import serverbench.metrics.MetricSpec.Merge.HISTOGRAM
import serverbench.metrics.MetricSpec.Merge.MAX
import serverbench.metrics.MetricSpec.Merge.POOLED
import serverbench.metrics.MetricSpec.Merge.SUM
import serverbench.metrics.MetricSpec.Shown.ABOVE_ZERO
import serverbench.metrics.MetricSpec.Shown.ALWAYS
import serverbench.metrics.MetricSpec.Shown.MEASURED
import serverbench.metrics.MetricSpec.Shown.OPEN_LOOP
import serverbench.metrics.MetricSpec.Shown.UNDER_BUDGET

/**
 * Every metric a result file can hold, in one place: the profiler emits them by these entries, and the report, its
 * findings, compare, the tracker export, the console and Hyperfoil's rows read their names, units, labels and
 * direction from here. The report's columns come in the order of [all]. jmh-results/README.md says what each means.
 */
object MetricCatalogue {
    const val SCORE = "score"

    // The report's columns, in its order.
    val THROUGHPUT = MetricSpec(
        SCORE,
        "ops/s",
        MetricSpec.Merge.PRIMARY,
        HIGHER,
        column = Column("req/s", ALWAYS),
        headline = Headline("req/s", "throughput", "req/s"),
    )
    val P50 = MetricSpec("latency.p50", "ms", HISTOGRAM, LOWER, column = Column("p50 ms", ALWAYS))
    val P99 = MetricSpec(
        "latency.p99",
        "ms",
        HISTOGRAM,
        LOWER,
        column = Column("p99 ms", ALWAYS),
        headline = Headline("p99", "latency-p99-ms", "ms"),
    )
    val P999 = MetricSpec("latency.p99.9", "ms", HISTOGRAM, LOWER, column = Column("p99.9 ms", ALWAYS))
    val ERRORS = MetricSpec("errors", "count", SUM, LOWER, whole = true, column = Column("errors", ALWAYS))
    val CLIENT_CPU = MetricSpec("client.cpu", "cores", POOLED, column = Column("client cores", ALWAYS))
    val SERVER_CPU_PER_REQ = MetricSpec(
        "server.cpuPerReq",
        "ms",
        POOLED,
        LOWER,
        column = Column("server CPU ms/req", ALWAYS),
        headline = Headline("server CPU/req", "server-cpu-per-request-us", "µs"),
    )
    val ALLOC_PER_REQ = MetricSpec("heap.allocPerReq", "bytes", POOLED, LOWER, column = Column("heap B/req", ALWAYS))
    val THREADS_PEAK = MetricSpec("threads.peak", "threads", MAX, whole = true, column = Column("threads", ALWAYS))
    val UNCORRECTED_P99 =
        MetricSpec("latency.uncorrected.p99", "ms", HISTOGRAM, LOWER, column = Column("uncorrected p99 ms", OPEN_LOOP))
    val SERVER_CPU = MetricSpec("server.cpu", "cores", POOLED, column = Column("server cores", UNDER_BUDGET))
    val THROTTLED = MetricSpec("server.throttled", "share", POOLED, column = Column("throttled periods", UNDER_BUDGET))
    val THROTTLED_MS = MetricSpec("server.throttledMs", "ms/s", POOLED, column = Column("throttled ms/s", UNDER_BUDGET))
    val POOL_WAIT_MEAN = MetricSpec("db.poolWait.mean", "us", AVG, column = Column("pool wait mean µs", MEASURED))
    val POOL_WAIT_MAX = MetricSpec("db.poolWait.max", "ms", MAX, column = Column("pool wait max ms", MEASURED))
    val HANDOVER_MEAN = MetricSpec("db.handover.mean", "us", AVG, column = Column("hand-over mean µs", MEASURED))

    /** Requests with a body (the JSON family): a fixed request's size is a scalar, the rest pooled. */
    val BYTES_IN_PER_REQ = MetricSpec("bytes.inPerReq", "bytes", AVG, LOWER, column = Column("bytes in/req", MEASURED))
    val BYTES_IN_PER_REQ_H2 =
        MetricSpec("bytes.inPerReq", "bytes", POOLED, LOWER, column = Column("bytes in/req", MEASURED))
    val BYTES_OUT_PER_REQ =
        MetricSpec("bytes.outPerReq", "bytes", POOLED, LOWER, column = Column("bytes out/req", MEASURED))
    val CONNECTS = MetricSpec("client.connectsPerSec", "1/s", POOLED, column = Column("connects/s", ABOVE_ZERO))
    val TLS_FULL =
        MetricSpec("client.tlsFullPerSec", "1/s", POOLED, column = Column("full TLS handshakes/s", ABOVE_ZERO))
    val TLS_RESUMED = MetricSpec("client.tlsResumedPerSec", "1/s", POOLED, column = Column("resumed/s", ABOVE_ZERO))

    /**
     * A capacity search (`-p objective`, docs/capacity.md), run-level: the highest rate that met the objective, the
     * lowest that missed it, the outcome's kind ([CapacitySearch.Kind.code]) and the steps it took.
     */
    val CAPACITY = MetricSpec("capacity", "req/s", MAX, HIGHER, column = Column("capacity req/s", MEASURED))
    val CAPACITY_HIGH = MetricSpec("capacity.missedAt", "req/s", MAX)
    val CAPACITY_KIND = MetricSpec("capacity.kind", "code", MAX, whole = true)
    val CAPACITY_STEPS = MetricSpec("capacity.steps", "steps", MAX, whole = true)

    // Not columns: in the result files, the console, the warnings and the findings.
    val OPEN_LOOP_LATE = MetricSpec("openLoop.late", "count", SUM)
    val OPEN_LOOP_DROPPED = MetricSpec("openLoop.dropped", "count", SUM)
    val OPEN_LOOP_CONNECTIONS = MetricSpec("openLoop.connections", "connections", MAX)
    val LITTLES_LAW = MetricSpec("littlesLaw", "ratio", POOLED)

    /** Run-level: once per fork, on its last iteration; MAX ignores the zeros JMH fills in elsewhere. */
    val NOT_STEADY = MetricSpec(Guards.WARNING_PREFIX + Guards.NOT_STEADY, "flag", MAX)
    val WARMUP_SECONDS = MetricSpec("warmup.seconds", "s", MAX)
    val FORK_START_MS = MetricSpec("fork.startMs", "ms", AVG)
    val UNANSWERED = MetricSpec("unanswered", "requests", MAX)
    val OPS_WITHOUT_SUCCESS = MetricSpec("client.opsWithoutSuccess", "count", SUM)
    val RECONNECTS = MetricSpec("reconnects", "count", SUM)
    val CLIENT_CPU_PER_REQ = MetricSpec("client.cpuPerReq", "us", POOLED, LOWER)
    val CLIENT_PROCESS_CPU = MetricSpec("client.processCpu", "cores", POOLED)
    val CLIENT_PROCESS_CPU_PER_REQ = MetricSpec("client.processCpuPerReq", "us", POOLED, LOWER)
    val CLIENT_THREADS = MetricSpec("client.threads", "threads", MAX)
    val CLIENT_THREAD_SPREAD = MetricSpec("client.threadSpread", "share", MAX)
    val SERVER_REMOTE = MetricSpec("server.remote", "flag", MAX)
    val SERVER_CPU_OF_BUDGET = MetricSpec("server.cpuOfBudget", "share", POOLED)
    val ALLOC_LOWER_BOUND = MetricSpec("heap.allocLowerBound", "share", AVG)
    val IN_FLIGHT_MAX = MetricSpec("server.inFlightMax", "requests", MAX)
    val FDS_OPEN = MetricSpec("fds.open", "fds", MAX, whole = true)
    val HEAP_AFTER_GC = MetricSpec("heap.afterGc", "MB", MAX)

    /** Stop-the-world GC pause time per second of wall ([ResourceReport.gcPauseNanos]), the server's whole process. */
    val GC_PAUSE = MetricSpec("gc.pause", "ms/s", POOLED, LOWER)

    /** `errors.<kind>`, written where non-zero. */
    val ERRORS_BY_KIND: Map<FailureKind, MetricSpec> =
        FailureKind.entries.associateWith { MetricSpec("errors.${it.name.lowercase()}", "count", SUM, LOWER) }

    /** The [Guards]' flags but [NOT_STEADY]: the share of measured iterations where each fired. */
    val WARNINGS: Map<String, MetricSpec> =
        Guards.NAMES.associateWith { MetricSpec(Guards.WARNING_PREFIX + it, "share", AVG) }

    /** The latency summaries [LatencyResult] writes, from the intended send and (open loop) from the actual one. */
    private val LATENCY = listOf(LatencyResult.PREFIX, LatencyResult.UNCORRECTED_PREFIX).flatMap { prefix ->
        LatencyResult.SUMMARY_SUFFIXES.map { MetricSpec(prefix + it, LatencyResult.UNIT, HISTOGRAM, LOWER) }
    }

    /** Every metric; where two entries share a name (how it is measured differs) the first says what readers need. */
    val all: List<MetricSpec> = listOf(
        THROUGHPUT, CAPACITY, P50, P99, P999, ERRORS, CLIENT_CPU, SERVER_CPU_PER_REQ, ALLOC_PER_REQ, THREADS_PEAK,
        UNCORRECTED_P99, SERVER_CPU, THROTTLED, THROTTLED_MS, POOL_WAIT_MEAN, POOL_WAIT_MAX, HANDOVER_MEAN,
        BYTES_IN_PER_REQ, BYTES_IN_PER_REQ_H2, BYTES_OUT_PER_REQ, CONNECTS, TLS_FULL, TLS_RESUMED,
        OPEN_LOOP_LATE, OPEN_LOOP_DROPPED, OPEN_LOOP_CONNECTIONS, LITTLES_LAW, NOT_STEADY, WARMUP_SECONDS,
        FORK_START_MS, UNANSWERED, OPS_WITHOUT_SUCCESS, RECONNECTS, CLIENT_CPU_PER_REQ, CLIENT_PROCESS_CPU,
        CLIENT_PROCESS_CPU_PER_REQ, CLIENT_THREADS, CLIENT_THREAD_SPREAD, SERVER_REMOTE, SERVER_CPU_OF_BUDGET,
        ALLOC_LOWER_BOUND, IN_FLIGHT_MAX, FDS_OPEN, HEAP_AFTER_GC, GC_PAUSE, CAPACITY_HIGH, CAPACITY_KIND,
        CAPACITY_STEPS,
    ) + ERRORS_BY_KIND.values + WARNINGS.values +
        LATENCY.filter { l -> listOf(P50, P99, P999, UNCORRECTED_P99).none { it.name == l.name } }

    private val byName: Map<String, MetricSpec> = all.reversed().associateBy { it.name }

    /** The entry named [name], or null for a name the harness does not write (another tool's, an older file's). */
    fun of(name: String): MetricSpec? = byName[name]

    /** The report's columns, in order, one per name. */
    val columns: List<MetricSpec> = all.filter { it.column != null }.distinctBy { it.name }

    /** The figures scripts/compare compares and the trackers chart. */
    val headlines: List<MetricSpec> = all.filter { it.headline != null }
}
