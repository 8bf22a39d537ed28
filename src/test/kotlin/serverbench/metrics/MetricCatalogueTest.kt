package serverbench.metrics

import org.HdrHistogram.Histogram
import org.junit.jupiter.api.Test
import serverbench.benchmarks.CapacityRun
import serverbench.client.ClientReport
import serverbench.client.FailureCounts
import serverbench.client.FailureKind
import serverbench.client.H2Bytes
import serverbench.fixture.CpuBudget
import kotlin.test.assertEquals
import kotlin.test.assertNotEquals
import kotlin.test.assertTrue

/**
 * The catalogue and what the profiler writes are one list: a metric written without an entry would be named, folded
 * and judged by no reader, and an entry never written is a column that stays empty.
 */
class MetricCatalogueTest {
    private fun histogram() = Histogram(3_600_000_000L, 3).apply { recordValueWithCount(2_000, 1_000) }

    /** A closed loop over HTTP/1.1 with a body, where every optional figure is there. */
    private val closed = IterationReport(
        ClientReport(
            latencyMicros = histogram(),
            successes = 1_000,
            failures = FailureCounts().apply { FailureKind.entries.forEach { add(it, it.label) } },
            reconnects = 3,
            clientCpuNanos = 100_000_000,
            wallNanos = 1_000_000_000,
            connections = 2,
            unanswered = 1,
            opsWithoutSuccess = 2,
            requestBytes = 100,
            responseBytes = 50_000,
            threads = listOf(
                ClientReport.ThreadShare(600, 50_000_000, 1_000_000_000, 1),
                ClientReport.ThreadShare(400, 50_000_000, 1_000_000_000, 1),
            ),
        ),
        ResourceReport(
            processCpuNanos = 500_000_000,
            allocatedBytes = 1_000_000,
            peakThreads = 20,
            openFds = 40,
            heapAfterGcBytes = 1 shl 20,
            inFlightMax = 2,
            allocLowerBound = true,
            gcPauseNanos = 3_000_000,
        ),
        warmupSeconds = 10.0,
        lastMeasurement = true,
        steadiness = Steadiness.Verdict.NotSteady("trend", warming = true),
        budget = BudgetReport(1.0, CpuBudget.Throttling(10, 2, 1_000_000)),
        extra = listOf(
            Figure(MetricCatalogue.POOL_WAIT_MEAN, 1.0),
            Figure(MetricCatalogue.POOL_WAIT_MAX, 2.0),
            Figure(MetricCatalogue.HANDOVER_MEAN, 3.0),
            Figure(MetricCatalogue.FORK_START_MS, 4.0),
        ),
    )

    /** An open loop over HTTP/2 against a target elsewhere. */
    private val open = IterationReport(
        ClientReport(
            latencyMicros = histogram(),
            successes = 1_000,
            failures = FailureCounts(),
            reconnects = 0,
            clientCpuNanos = 100_000_000,
            wallNanos = 1_000_000_000,
            uncorrectedLatencyMicros = histogram(),
            rate = 1_000.0,
            connections = 4,
            maxConnections = 3,
            requestBytes = 100,
            h2Frames = H2Bytes(200_000, 300_000),
        ),
        ResourceReport(
            processCpuNanos = 500_000_000,
            allocatedBytes = 1_000_000,
            peakThreads = 20,
            remoteServer = "host:8080",
            clientProcessCpuNanos = 200_000_000,
        ),
        steadiness = Steadiness.Verdict.Steady,
        // The last measured iteration of a capacity search carries its outcome.
        extra = CapacityRun.figures(
            CapacitySearch.Outcome(CapacitySearch.Kind.BRACKETED, 100.0, 103.0, emptyList(), "within 3 %, confirmed"),
        ),
    )

    /** Name -> unit of every result written for [report], a latency result's percentiles included. */
    private fun written(report: IterationReport): Map<String, String> = LoadMetricsProfiler.results(report).flatMap {
        if (it is LatencyResult) {
            LatencyResult.SUMMARY_SUFFIXES.map { s -> it.label.removeSuffix(".mean") + s to it.scoreUnit }
        } else {
            listOf(it.label to it.scoreUnit)
        }
    }.toMap()

    @Test
    fun `every metric the profiler writes is in the catalogue, with its unit`() {
        for ((name, unit) in written(closed) + written(open)) {
            val entry = MetricCatalogue.of(name)
            assertTrue(entry != null, "$name is written but not in MetricCatalogue")
            assertTrue(MetricCatalogue.all.any { it.name == name && it.unit == unit }, "$name in $unit: ${entry?.unit}")
        }
    }

    @Test
    fun `every catalogue entry but the score is written by the profiler`() {
        val names = written(closed).keys + written(open).keys
        val missing = MetricCatalogue.all.filter { !it.primary && it.name !in names }
        assertEquals(emptyList(), missing, "in MetricCatalogue but never written")
    }

    @Test
    fun `entries of one name agree on what readers see`() {
        for ((name, same) in MetricCatalogue.all.groupBy { it.name }) {
            val seen = same.map { listOf(it.unit, it.better, it.whole, it.column?.header, it.headline?.slug) }
            assertEquals(1, seen.distinct().size, "$name: $seen")
        }
    }

    @Test
    fun `a headline is a column with a direction`() {
        for (m in MetricCatalogue.headlines) {
            assertNotEquals(MetricSpec.Better.NEITHER, m.better, m.name)
            assertTrue(m.column != null, m.name)
        }
    }
}
