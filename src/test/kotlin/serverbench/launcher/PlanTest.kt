package serverbench.launcher

import org.junit.jupiter.api.Test
import org.openjdk.jmh.annotations.Mode
import org.openjdk.jmh.runner.options.OptionsBuilder
import org.openjdk.jmh.runner.options.TimeValue
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/** The runs the launcher plans from the jar's benchmark list and the user's options, before anything starts. */
class PlanTest {
    @Test
    fun `each benchmark runs once per combination of its parameters' values`() {
        val options = OptionsBuilder().include("CpuBenchmark.direct$")
            .param("limit", "1000", "100000").param("server", "netty", "tomcat")
            .measurementIterations(3).measurementTime(TimeValue.seconds(2)).forks(1).build()
        val runs = Plan.runs(options)
        assertEquals(4, runs.size, runs.map { it.key }.toString())
        assertTrue(
            runs.all {
                it.benchmark == "serverbench.benchmarks.CpuBenchmark.direct" && it.mode == Mode.Throughput
            },
        )
        assertEquals(
            setOf("netty/1000", "netty/100000", "tomcat/1000", "tomcat/100000"),
            runs.map { "${it.params["server"]}/${it.params["limit"]}" }.toSet(),
        )
        // Every declared parameter is planned, the ones not given at their defaults (concurrency 64, closed loop).
        assertTrue(runs.all { it.params["concurrency"] == "64" && it.params["rate"] == "0" }, runs[0].params.toString())
        val declared = setOf(
            "server", "concurrency", "rate", "objective", "cpus", "cpuset", "clientThreads", "limit", "tls",
            "sslProvider", "requestsPerConnection", "protocol", "streams",
        )
        assertEquals(declared, runs[0].params.keys)
        assertTrue(runs.all { it.measurementIterations == 3 })
    }

    @Test
    fun `the estimate grows with forks and measurement time`() {
        fun estimate(forks: Int, seconds: Long) = Plan.runs(
            OptionsBuilder().include("NoopBenchmark.hello$").param("server", "netty").forks(forks)
                .warmupIterations(0).measurementIterations(2).measurementTime(TimeValue.seconds(seconds)).build(),
        ).single().estimateSeconds
        val one = estimate(1, 1)
        assertTrue(one >= 2, "two 1 s iterations and a server start: $one s")
        assertEquals(2 * one, estimate(2, 1))
        assertEquals(one + 2 * 4, estimate(1, 5))
    }

    @Test
    fun `a capacity search's estimate counts every step it may take`() {
        fun estimate(objective: String) = Plan.runs(
            OptionsBuilder().include("NoopBenchmark.hello$").param("server", "netty").param("objective", objective)
                .forks(1).warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.seconds(1)).build(),
        ).single().estimateSeconds
        assertEquals(estimate("none") + Plan.searchSeconds(), estimate("p99:100ms"))
        assertTrue(Plan.searchSeconds() >= 16 * 10, "${Plan.searchSeconds()} s")
    }

    @Test
    fun `the jar lists every benchmark method, and the parameters a selection declares`() {
        val all = Plan.allBenchmarks()
        assertTrue("serverbench.benchmarks.NoopBenchmark.hello" in all, all.toString())
        assertTrue("serverbench.benchmarks.BlockingIoBenchmark.cfVirtual" in all, all.toString())
        val noop = Plan.declaredParams(OptionsBuilder().include("NoopBenchmark").build())
        assertEquals(
            setOf(
                "clientThreads", "concurrency", "cpus", "cpuset", "objective", "protocol", "rate",
                "requestsPerConnection", "server", "sslProvider", "streams", "tls",
            ),
            noop,
        )
        assertTrue("limit" in Plan.declaredParams(OptionsBuilder().include("CpuBenchmark.direct$").build()))
    }
}
