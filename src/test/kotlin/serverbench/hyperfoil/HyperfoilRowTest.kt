package serverbench.hyperfoil

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.report.BenchmarkResult
import serverbench.report.Results
import java.io.File
import java.util.Properties
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * A Hyperfoil run folded into the harness's JSON: the report reads it as any run, with `engine=hyperfoil`, the score
 * from the requests that started in each measured iteration, latency from Hyperfoil's histogram.
 */
class HyperfoilRowTest {
    private val sizing = HyperfoilYaml.Sizing(warmupSeconds = 3, iterations = 4, iterationSeconds = 1)

    private fun workload(vararg params: String) =
        HyperfoilCommand.plan(HyperfoilOptions.parse(listOf("NoopBenchmark") + params.flatMap { listOf("-p", it) }))
            .single()

    private fun summary(
        blockedNanos: Long = 0,
        sessionsRanOut: Boolean = false,
        // Seconds 0-3 measured (1 ms each request, 8 connections), second 4 after the phase: left out.
        seconds: String = "0:1000:1000:1000000000,1:3000:3000:3000000000,2:4000:4000:4000000000," +
            "3:4000:4000:4000000000,4:50:50:50000000",
    ): RunSummary = RunSummary(
        Properties().apply {
            val m = "phase.${HyperfoilYaml.MEASURE}"
            setProperty("$m.seconds", seconds)
            setProperty("$m.latency.meanNanos", "1000000.0")
            setProperty("$m.latency.maxNanos", "9000000")
            setProperty("$m.latency.p50.nanos", "900000")
            setProperty("$m.latency.p90.nanos", "1500000")
            setProperty("$m.latency.p99.nanos", "3000000")
            setProperty("$m.latency.p99.9.nanos", "5000000")
            setProperty("$m.blockedNanos", blockedNanos.toString())
            setProperty("$m.sessionLimitExceeded", sessionsRanOut.toString())
        },
    )

    private fun read(
        dir: File,
        w: Workload,
        summary: RunSummary,
        sizing: HyperfoilYaml.Sizing = this.sizing,
    ): BenchmarkResult {
        val file = File(dir, "hyperfoil.json")
        HyperfoilRow.write(listOf(HyperfoilRow.fold(w, summary, sizing).json), file)
        return Results.read(file).single()
    }

    @Test
    fun `a closed-loop run reads as a harness run of the same workload, engine hyperfoil`(@TempDir dir: File) {
        val w = workload("server=netty", "concurrency=8")
        val run = read(dir, w, summary())
        assertEquals("serverbench.benchmarks.NoopBenchmark.hello", run.benchmark)
        assertEquals("hyperfoil", run.engine)
        // The run's parameters (defaults dropped on reading, as for any run) and the engine.
        assertEquals(
            mapOf("server" to "netty", "rate" to "0", "concurrency" to "8", "engine" to "hyperfoil"),
            run.params,
        )
        // Iterations of 1 s: 1000, 3000, 4000, 4000 req/s.
        assertEquals(3000.0, run.primary.score, 1e-9)
        assertTrue(run.primary.error.isFinite() && run.primary.error > 0, run.primary.toString())
        assertEquals(0.9, run.metric("latency.p50")!!.score, 1e-9)
        assertEquals(5.0, run.metric("latency.p99.9")!!.score, 1e-9)
        assertEquals(0.0, run.metric("errors")!!.score)
        // 3000 req/s x 1 ms / 8 connections.
        assertEquals(0.375, run.metric("littlesLaw")!!.score, 1e-9)
        assertEquals(4, run.iterations)
        assertEquals("1 s", run.iterationTime)
    }

    @Test
    fun `the client's CPU, and the guards it and Little's law tell, are the harness's`(@TempDir dir: File) {
        val w = workload("server=netty", "concurrency=8")
        val s = summary().also {
            it.p.setProperty("phase.measure.cpu.process", "1.2")
            it.p.setProperty("phase.measure.cpu.busiestLoop", "0.95")
            it.p.setProperty("phase.measure.cpu.machineBusy", "0.97")
        }
        val run = read(dir, w, s)
        assertEquals(1.2, run.metric("client.cpu")!!.score, 1e-9)
        // 1.2 cores over 4 s for 12 000 successes.
        assertEquals(400.0, run.metric("client.cpuPerReq")!!.score, 1e-9)
        // 4 iterations are too few to judge steadiness: no verdict, and the line says so, as the harness's does.
        assertEquals(listOf("clientSaturated", "littlesLaw"), run.warnings)
        val line = HyperfoilRow.fold(w, s, sizing).line
        assertTrue(line.contains("WARNING (clientSaturated: Hyperfoil's busiest event loop used 0.95"), line)
        assertTrue(line.contains("WARNING (littlesLaw: req/s × mean latency ÷ concurrency = 0.375"), line)
        assertTrue(line.contains("too few iterations to judge steadiness (-i 5 or more)"), line)
    }

    @Test
    fun `under five iterations a row carries no steadiness verdict, as the harness writes none`(@TempDir dir: File) {
        // 4 iterations of 1 s (sizing): too few for either test, so neither steady (0) nor not (1) is written.
        val run = read(dir, workload("server=netty", "concurrency=8"), summary())
        assertFalse(BenchmarkResult.NOT_STEADY in run.secondary, "${run.secondary.keys}")
        assertTrue(run.steadinessNotJudged)
    }

    @Test
    fun `five iterations that scatter far beyond the harness's limit are not steady, as the harness would say`(
        @TempDir dir: File,
    ) {
        val w = workload("server=netty", "concurrency=8")
        val five = HyperfoilYaml.Sizing(warmupSeconds = 3, iterations = 5, iterationSeconds = 1)
        val s = summary(
            seconds = "0:1000:1000:1000000000,1:3000:3000:3000000000,2:4000:4000:4000000000," +
                "3:4000:4000:4000000000,4:4000:4000:4000000000,5:50:50:50000000",
        )
        val run = read(dir, w, s, five)
        assertEquals(listOf("notSteady"), run.warnings)
        assertTrue(run.notSteady)
        val line = HyperfoilRow.fold(w, s, five).line
        assertTrue(line.contains("WARNING (notSteady: the 99.9 % interval is ±"), line)
    }

    @Test
    fun `open-loop latency is the uncorrected one, and the corrected one too only when nothing waited`(
        @TempDir dir: File,
    ) {
        val w = workload("server=netty", "rate=1000")
        val onTime = read(dir, w, summary())
        assertEquals(3.0, onTime.metric("latency.uncorrected.p99")!!.score, 1e-9)
        assertEquals(3.0, onTime.metric("latency.p99")!!.score, 1e-9)
        assertNull(onTime.metric("littlesLaw"))
        val late = read(dir, w, summary(blockedNanos = 5_000_000))
        assertNull(late.metric("latency.p99"), "requests waited for a connection: the corrected latency is unknown")
        assertEquals(listOf("behindSchedule"), late.warnings)
        val throttled = read(dir, w, summary(sessionsRanOut = true))
        assertNull(throttled.metric("latency.p99"), "requests waited for a session")
        assertEquals(3.0, throttled.metric("latency.uncorrected.p99")!!.score, 1e-9)
        assertEquals(listOf("behindSchedule"), throttled.warnings)
    }

    @Test
    fun `a failed run is one line with what each phase got back`() {
        val w = workload("server=netty", "concurrency=8")
        val s = RunSummary(
            Properties().apply {
                setProperty("failure", "Terminating benchmark: GET /noop/hello answered HTTP 5xx, not 2xx")
                setProperty("phase.warmup.requests", "12")
                setProperty("phase.warmup.responses", "9")
                setProperty("phase.warmup.invalid", "9")
                setProperty("phase.warmup.status", "0,0,0,9,0")
            },
        )
        val line = HyperfoilRow.failure(w, s)
        assertEquals(
            "${w.name}: Terminating benchmark: GET /noop/hello answered HTTP 5xx, not 2xx (warmup: 12 requests, " +
                "failed: 9 non_2xx)",
            line,
        )
        assertEquals(1, line.lines().size)
    }
}
