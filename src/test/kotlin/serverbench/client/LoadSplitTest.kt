package serverbench.client

import org.junit.jupiter.api.Test
import serverbench.params.ClientThreadsParam
import serverbench.testing.clientReport
import serverbench.testing.latencies
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertNull
import kotlin.test.assertTrue

class LoadSplitTest {
    @Test
    fun `connections split evenly, the first threads take the remainder`() {
        val split = LoadSplit.of(64, 0.0, 2)
        assertEquals(listOf(32, 32), split.connections)
        assertEquals(listOf(0.0, 0.0), split.rates)
        assertNull(split.reduction)
        assertEquals(listOf(4, 3, 3), LoadSplit.of(10, 0.0, 3).connections)
        assertEquals(10, LoadSplit.of(10, 0.0, 3).connections.sum())
    }

    @Test
    fun `the rate splits evenly over the threads, each with its connections`() {
        val split = LoadSplit.of(64, 2000.0, 2)
        assertEquals(listOf(1000.0, 1000.0), split.rates)
        assertEquals("1000 + 1000 req/s on up to 32 + 32 connections", split.describe())
        assertEquals(listOf(1001.0 / 3, 1001.0 / 3, 1001.0 / 3), LoadSplit.of(9, 1001.0, 3).rates)
    }

    @Test
    fun `fewer connections or requests per second than threads reduce the threads, saying why`() {
        val fewConnections = LoadSplit.of(3, 0.0, 8)
        assertEquals(listOf(1, 1, 1), fewConnections.connections)
        assertEquals(
            "clientThreads=8 reduced to 3: each thread needs a connection of its own (-p concurrency=3)",
            fewConnections.reduction,
        )
        val lowRate = LoadSplit.of(64, 2.0, 4)
        assertEquals(2, lowRate.threads)
        assertEquals(listOf(1.0, 1.0), lowRate.rates)
        assertEquals(
            "clientThreads=4 reduced to 2: each thread needs at least 1 request/s of -p rate=2",
            lowRate.reduction,
        )
        assertEquals(1, LoadSplit.of(64, 0.5, 4).threads)
    }

    @Test
    fun `auto is one thread per 4 processors, exactly 1 on 2 cores`() {
        assertEquals(listOf(1, 1, 1, 2, 4, 8, 16), listOf(1, 2, 4, 8, 16, 32, 64).map { LoadSplit.auto(it) })
        assertEquals(3, ClientThreadsParam.count("3"))
        // A server on its own host: a thread per 3 of its processors, at most this host's.
        assertEquals(listOf(1, 1, 2, 3, 6, 8), listOf(1, 2, 4, 8, 16, 32).map { LoadSplit.autoRemote(it, 8) })
        for (bad in listOf("0", "-1", "x", "257", "")) {
            val e = assertFailsWith<IllegalArgumentException> { ClientThreadsParam.count(bad) }
            assertEquals("clientThreads must be auto or an integer from 1 to 256, was '$bad'", e.message)
        }
    }

    private fun report(values: List<Long>, failures: Map<FailureKind, Int>, successes: Long = values.size.toLong()) =
        clientReport(
            latencies(*values.map { it to 1L }.toTypedArray()),
            successes,
            FailureCounts().also { f -> failures.forEach { (k, n) -> repeat(n) { f.add(k, "$k") } } },
            reconnects = 1,
            clientCpuNanos = 100,
            wallNanos = 1000,
            connections = 4,
            maxConnections = 4,
        )

    @Test
    fun `reports merge histograms, never percentiles, and sum failures by kind`() {
        // One thread saw 1..100 µs, the other 1000 values of 10 000 µs: the merged median is the slow one's, which no
        // average of the two medians (50 and 10 000) gives.
        val fast = report((1L..100L).toList(), mapOf(FailureKind.TIMEOUT to 1), successes = 1100)
        val slow = report(List(1000) { 10_000L }, mapOf(FailureKind.TIMEOUT to 2, FailureKind.NON_2XX to 1))
        val merged = ClientReport.merge(fast, listOf(slow))
        assertEquals(1100, merged.latencyMicros.totalCount)
        assertEquals(10_000.0, merged.latencyMicros.getValueAtPercentile(50.0).toDouble(), 10.0)
        assertEquals(3, merged.failures[FailureKind.TIMEOUT])
        assertEquals(1, merged.failures[FailureKind.NON_2XX])
        assertEquals(4, merged.failures.total)
        assertEquals(1100, merged.successes, "the benchmark thread's count is JMH's, every thread's successes")
        assertEquals(listOf(1100L, 1000L), merged.threads.map { it.successes })
        assertEquals(200, merged.clientCpuNanos)
        assertEquals(8, merged.connections)
        assertEquals(2, merged.reconnects)
        assertTrue(merged.threads.all { it.cores == 0.1 })
    }
}
