package serverbench.report

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.metrics.Guards
import serverbench.metrics.MetricCatalogue
import serverbench.testing.errorCount
import serverbench.testing.latencyRange
import serverbench.testing.metric
import serverbench.testing.notSteadyFlag
import serverbench.testing.row
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/** The verdicts a report opens with, from runs whose intervals are chosen to overlap or not. */
class FindingsTest {
    private fun run(
        benchmark: String,
        server: String,
        rps: Double,
        rpsError: Double,
        p99: Double,
        p99Low: Double,
        p99High: Double,
        params: Map<String, String> = mapOf("concurrency" to "64"),
        notSteady: Boolean = false,
        errors: Double = 0.0,
        warnings: List<String> = emptyList(),
        jdk: String = "17.0.9",
        // As the quick suite measures: 8 a side put two p99 ranges apart at p = 0.016 %, beyond noise.
        iterations: Int = 8,
    ) = row(
        benchmark,
        params + ("server" to server) + knobs(params, server),
        rps,
        rpsError,
        mapOf(
            "latency.p99" to latencyRange(p99, p99Low, p99High, iterations),
            errorCount(errors),
            notSteadyFlag(notSteady),
        ) +
            warnings.associate { "warning.$it" to metric(0.5, "share") },
        jdkVersion = jdk,
        forks = 1,
        iterations = iterations,
    )

    /** The blocking family's server knobs as a real run has them: unset, and n/a on the other stack. */
    private fun knobs(params: Map<String, String>, server: String) = if ("delayMs" !in params) {
        emptyMap()
    } else {
        mapOf(
            "nettyIoWorkers" to if (server == "netty") "default" else "n/a",
            "tomcatMaxThreads" to if (server == "tomcat") "default" else "n/a",
            "jettyMaxThreads" to if (server == "jetty") "default" else "n/a",
            "virtualThreads" to "false",
        )
    }

    private fun lines(runs: List<BenchmarkResult>) = Findings.markdown(runs).lines()

    /** Both stacks × CPU direct/completableFuture × blocking direct/nonBlocking, and Noop: a quick-suite-like run. */
    private val cpu = mapOf("concurrency" to "64", "limit" to "10000")
    private val io = mapOf("concurrency" to "64", "delayMs" to "100")
    private val quickLike = listOf(
        run("NoopBenchmark.hello", "netty", 43_254.0, 417.0, 4.95, 4.8, 5.1),
        run("NoopBenchmark.hello", "tomcat", 37_600.0, 600.0, 6.1, 5.9, 6.4),
        run("CpuBenchmark.direct", "netty", 7_840.0, 150.0, 18.0, 17.0, 19.0, cpu),
        run("CpuBenchmark.direct", "tomcat", 9_800.0, 200.0, 22.0, 21.0, 24.0, cpu),
        run("CpuBenchmark.completableFuture", "netty", 7_700.0, 180.0, 15.0, 14.5, 15.5, cpu),
        run("CpuBenchmark.completableFuture", "tomcat", 9_650.0, 250.0, 21.0, 20.0, 23.0, cpu, notSteady = true),
        run(
            "BlockingIoBenchmark.direct", "netty", 38.0, 2.0, 1_700.0, 1_650.0, 1_800.0, io,
            warnings = listOf("unanswered"),
        ),
        run("BlockingIoBenchmark.direct", "tomcat", 630.0, 3.0, 101.0, 100.8, 101.5, io),
        run("BlockingIoBenchmark.nonBlocking", "netty", 636.0, 2.0, 100.9, 100.7, 101.2, io),
        run("BlockingIoBenchmark.nonBlocking", "tomcat", 635.0, 2.0, 101.2, 100.9, 101.6, io),
    )

    @Test
    fun `a quick-suite-like run gives the conditions once, a line or two per family, the stacks side by side`() {
        val text = Findings.markdown(quickLike)
        assertEquals(
            listOf(
                "", "## Findings", "",
                "Conditions: closed loop, 64 connections; no CPU budget: the load client runs in the same JVM on the " +
                    "same cores as the server; JDK 17.0.9; plain HTTP (tls=false), HTTP/1.1. $NOISE",
                "",
                "- **BlockingIo**: most req/s **netty nonBlocking**: 636.0 vs 635.0 (tomcat nonBlocking), +0.2 %, " +
                    "within " +
                    "noise; lowest p99 too: 100.9 vs 101.0 ms (tomcat direct), -0.1 %, within noise.",
                "  Same variant, netty vs tomcat: more req/s within noise (nonBlocking); lower p99 within noise " +
                    "(nonBlocking). Guards fired, so not compared: netty direct (unanswered).",
                // Beyond noise only where the lead outgrows both intervals widened by the between-fork allowance.
                "- **Cpu**: most req/s **tomcat direct**: 9,800 vs 7,840 (netty direct), +25 %, beyond noise; lowest " +
                    "p99 **netty completableFuture**: 15.00 vs 18.00 ms (netty direct), -17 %, within noise.",
                "  Same variant, netty vs tomcat: more req/s on tomcat (direct +25 %); lower p99 within noise " +
                    "(direct). Not steady, so not compared: tomcat completableFuture (still warming).",
                "- **Noop**: most req/s **netty hello**: 43,254 vs 37,600 (tomcat hello), +15 %, within noise; " +
                    "lowest p99 too: 4.95 vs 6.10 ms (tomcat hello), -19 %, within noise.",
                "",
            ),
            text.lines(),
        )
        assertTrue(text.lines().size <= 15, text)
    }

    @Test
    fun `three stacks get one same-variant line per pair, each naming its two stacks`() {
        val runs = listOf(
            run("BlockingIoBenchmark.direct", "netty", 38.0, 2.0, 1_700.0, 1_650.0, 1_800.0, io),
            run("BlockingIoBenchmark.direct", "tomcat", 630.0, 3.0, 101.0, 100.8, 101.5, io),
            run("BlockingIoBenchmark.direct", "jetty", 628.0, 3.0, 101.1, 100.9, 101.6, io),
        )
        val family = lines(runs).dropWhile { !it.startsWith("- **BlockingIo**") }
        assertEquals(
            "- **BlockingIo**: most req/s **tomcat direct**: 630.0 vs 628.0 (jetty direct), +0.3 %, within noise; " +
                "lowest p99 too: 101.0 vs 101.1 ms (jetty direct), -0.1 %, within noise.",
            family[0],
        )
        assertEquals(
            "  Same variant, jetty vs netty: more req/s on jetty (direct 17×); lower p99 on jetty (direct 17× " +
                "lower). Same variant, jetty vs tomcat: more req/s within noise (direct); lower p99 within noise " +
                "(direct). Same variant, netty vs tomcat: more req/s on tomcat (direct 17×); lower p99 on tomcat " +
                "(direct 17× lower).",
            family[1],
        )
    }

    @Test
    fun `a lead inside both rows' intervals is within noise, one outside them beyond noise`() {
        val close = lines(
            listOf(
                run("NoopBenchmark.hello", "netty", 43_254.0, 417.0, 4.95, 4.8, 5.1),
                run("NoopBenchmark.hello", "tomcat", 42_900.0, 500.0, 4.9, 4.7, 5.2),
            ),
        )
        assertTrue(
            close.contains(
                "- **Noop**: most req/s **netty hello**: 43,254 vs 42,900 (tomcat hello), +0.8 %, " +
                    "within noise; lowest p99 **tomcat hello**: 4.90 vs 4.95 ms (netty hello), -1.0 %, within noise.",
            ),
            "$close",
        )
        // 10,000 ± 100 against 8,000 ± 100, each widened by the between-fork allowance (±7.3 %): 9,171 and 8,683.
        val clear = lines(
            listOf(
                run("CpuBenchmark.direct", "netty", 10_000.0, 100.0, 10.0, 9.0, 11.0),
                run("CpuBenchmark.direct", "tomcat", 8_000.0, 100.0, 30.0, 28.0, 33.0),
            ),
        )
        assertTrue(
            clear.contains(
                "- **Cpu**: most req/s **netty direct**: 10,000 vs 8,000 (tomcat direct), +25 %, " +
                    "beyond noise; lowest p99 too: 10.00 vs 30.00 ms (tomcat direct), 3.0× lower, beyond noise.",
            ),
            "$clear",
        )
    }

    @Test
    fun `p99 ranges apart over 5 iterations a side are not beyond noise, the line gives their chance instead`(
        @TempDir dir: File,
    ) {
        // As a result file holds them: the per-iteration p99s in rawData, their range in scoreConfidence.
        fun result(server: String, variant: String, rps: Int, p99: List<Double>) = """{
            "benchmark": "serverbench.benchmarks.CpuBenchmark.$variant", "forks": 1,
            "measurementIterations": ${p99.size}, "params": {"server": "$server", "concurrency": "64"},
            "primaryMetric": {"score": $rps, "scoreError": 10, "scoreConfidence": [${rps - 10}, ${rps + 10}],
            "scoreUnit": "ops/s"},
            "secondaryMetrics": {"latency.p99": {"score": ${p99.sorted()[p99.size / 2]},
            "scoreError": ${p99.max() - p99.min()}, "scoreConfidence": [${p99.min()}, ${p99.max()}],
            "scoreUnit": "ms", "rawData": [$p99]}}}"""
        val fast = listOf(10.0, 10.2, 10.4, 10.1, 10.3)
        // Apart even when each range is widened by the between-fork allowance (±7.3 %).
        val slow = listOf(14.0, 14.2, 14.4, 14.1, 14.3)
        val file = File(dir, "r.json").apply {
            writeText(
                "[" + listOf(
                    result("netty", "direct", 1000, fast),
                    result("tomcat", "direct", 900, slow),
                    result("netty", "completableFuture", 800, slow),
                    result("tomcat", "completableFuture", 700, slow.map { it + 0.3 }),
                ).joinToString(",") + "]",
            )
        }
        val text = lines(Results.read(file))
        // All 5 of one row below all 5 of the other happens by chance 2 times in C(10, 5) = 252: 0.79 %, not 0.1 %.
        assertEquals(
            "- **Cpu**: most req/s **netty direct**: 1,000 vs 900.0 (tomcat direct), +11 %, within noise; lowest p99 " +
                "too: 10.20 vs 14.20 ms (tomcat direct), -28 %, ranges apart, p = 0.79 %.",
            text[5],
        )
        assertEquals(
            "  Same variant, netty vs tomcat: more req/s within noise (completableFuture, direct); lower p99 " +
                "ranges apart at p > 0.1 % (direct), within noise (completableFuture).",
            text[6],
        )
    }

    @Test
    fun `a row that was not steady is left out of the ranking and named`() {
        val runs = listOf(
            run("CpuBenchmark.direct", "netty", 12_000.0, 3_000.0, 8.0, 7.0, 9.0, notSteady = true),
            run("CpuBenchmark.direct", "tomcat", 9_800.0, 200.0, 22.0, 21.0, 24.0),
            run("CpuBenchmark.completableFuture", "tomcat", 9_000.0, 200.0, 20.0, 19.0, 21.0),
        )
        val text = lines(runs)
        assertTrue(
            text.contains(
                "- **Cpu**: most req/s **tomcat direct**: 9,800 vs 9,000 (tomcat " +
                    "completableFuture), +8.9 %, within noise; lowest p99 **tomcat completableFuture**: 20.00 vs " +
                    "22.00 ms " +
                    "(tomcat direct), -9.1 %, within noise.",
            ),
            "$text",
        )
        assertTrue(text.contains("  Not steady, so not compared: netty direct (still warming)."), "$text")
        val alone = lines(runs.take(2))
        assertTrue(
            alone.contains(
                "- **Cpu**: only **tomcat direct** was steady without errors or fired guards: 9,800 req/s, " +
                    "p99 22.00 ms.",
            ),
            "$alone",
        )
        val none = lines(runs.take(1) + runs[1].copy(secondary = runs[0].secondary))
        assertTrue(
            none.contains("- **Cpu**: no row was steady without errors or fired guards, nothing can be compared."),
            "$none",
        )
        val both = "  Not steady, so not compared: netty direct (still warming), tomcat direct (still warming)."
        assertTrue(none.contains(both), "$none")
    }

    @Test
    fun `rows with too few iterations to judge have no verdict, so they are named and never ranked`() {
        // Under -i 5 the guard gives no verdict and writes no warning.notSteady.
        fun unjudged(r: BenchmarkResult) = r.copy(secondary = r.secondary - BenchmarkResult.NOT_STEADY, iterations = 3)
        val netty = run("CpuBenchmark.direct", "netty", 10_000.0, 100.0, 10.0, 9.0, 11.0)
        val tomcat = run("CpuBenchmark.direct", "tomcat", 9_500.0, 100.0, 30.0, 28.0, 33.0)
        val one = lines(listOf(unjudged(netty), tomcat.copy(iterations = 5)))
        assertEquals(
            "- **Cpu**: only **tomcat direct** was steady without errors or fired guards: 9,500 req/s, p99 30.00 ms.",
            one[5],
            "$one",
        )
        assertEquals(
            "  Too few iterations to judge steadiness (-i 5 or more), so not compared: netty direct.",
            one[6],
            "$one",
        )
        val both = lines(listOf(unjudged(netty), unjudged(tomcat)))
        assertEquals(
            "- **Cpu**: no row was steady without errors or fired guards, nothing can be compared.",
            both[5],
            "$both",
        )
        assertEquals(
            "  Too few iterations to judge steadiness (-i 5 or more), so not compared: netty direct, tomcat direct.",
            both[6],
            "$both",
        )
        // A flag an older harness wrote for 3 iterations is kept; unknown iterations (0) are no reason to doubt one.
        val flagged = lines(listOf(netty.copy(iterations = 3), tomcat))
        assertFalse(flagged.any { it.contains("Too few") }, "$flagged")
    }

    @Test
    fun `failures and fired guards are mentioned with the row`() {
        val text = lines(
            listOf(
                run(
                    "BlockingIoBenchmark.direct", "netty", 38.0, 2.0, 1_700.0, 1_650.0, 1_800.0,
                    errors = 12.0, warnings = listOf("unanswered", "littlesLaw"),
                ),
                run("BlockingIoBenchmark.direct", "tomcat", 630.0, 3.0, 101.0, 100.8, 101.5),
            ),
        )
        assertEquals(
            "  Errors, so not compared: netty direct 12. Guards fired, so not compared: netty direct (unanswered, " +
                "littlesLaw).",
            text[6],
            "$text",
        )
    }

    @Test
    fun `a row where a guard fired or requests failed is never the headline, however far it leads`() {
        // docs/reading-the-output.md: a saturated client understates the server; Little's law off hides time.
        val saturated = run(
            "NoopBenchmark.hello",
            "netty",
            60_000.0,
            100.0,
            2.0,
            1.9,
            2.1,
            warnings = listOf(Guards.CLIENT_SATURATED),
        )
        val littles = run(
            "NoopBenchmark.hello",
            "jetty",
            50_000.0,
            100.0,
            3.0,
            2.9,
            3.1,
            warnings = listOf(Guards.LITTLES_LAW),
        )
        val clean = run("NoopBenchmark.hello", "tomcat", 30_000.0, 100.0, 6.0, 5.9, 6.1)
        val three = lines(listOf(saturated, littles, clean))
        assertEquals(
            "- **Noop**: only **tomcat hello** was steady without errors or fired guards: 30,000 req/s, p99 6.00 ms.",
            three[5],
            "$three",
        )
        assertEquals(
            "  Guards fired, so not compared: netty hello (clientSaturated), jetty hello (littlesLaw).",
            three[6],
            "$three",
        )
        // The most req/s, counting successes only, while 3 requests failed: not ranked either.
        val failing = run("NoopBenchmark.hello", "jetty", 45_000.0, 100.0, 4.0, 3.9, 4.1, errors = 3.0)
        val withFailing = lines(listOf(failing, clean, saturated))
        assertTrue(withFailing[5].startsWith("- **Noop**: only **tomcat hello** was steady"), "$withFailing")
        assertTrue(withFailing[6].contains("Errors, so not compared: jetty hello 3."), "$withFailing")
    }

    @Test
    fun `open loop and a CPU budget are the conditions, said once`() {
        val budget = mapOf("concurrency" to "64", "rate" to "2000", "cpus" to "1")
        val text = lines(
            listOf(
                run("NoopBenchmark.hello", "netty", 1_999.0, 1.0, 2.0, 1.9, 2.1, budget),
                run("NoopBenchmark.hello", "tomcat", 1_998.0, 1.0, 3.0, 2.9, 3.1, budget),
            ),
        )
        assertEquals(
            "Conditions: open loop at 2000 req/s (at most 64 connections); server under a CPU budget " +
                "(cpus=1), the load client in the same JVM outside it; JDK 17.0.9; plain HTTP (tls=false), HTTP/1.1. " +
                NOISE,
            text[3],
        )
        val pinned = mapOf("concurrency" to "400", "cpuset" to "1", "cpus" to "unlimited")
        val other = lines(listOf(run("NoopBenchmark.hello", "netty", 1_999.0, 1.0, 2.0, 1.9, 2.1, pinned)))
        assertTrue(
            other[3].startsWith(
                "Conditions: closed loop, 400 connections; server under a CPU budget " +
                    "(cpuset=1), the load client in the same JVM on the other cores; JDK 17.0.9; " +
                    "plain HTTP (tls=false), HTTP/1.1.",
            ),
            other[3],
        )
    }

    @Test
    fun `the load client's own CPU quota is a condition, and rows without one say none`() {
        val rows = listOf(
            run("NoopBenchmark.hello", "netty", 20_000.0, 100.0, 9.0, 8.9, 9.1).copy(clientCpus = "0.25"),
            run("NoopBenchmark.hello", "tomcat", 18_000.0, 100.0, 9.5, 9.4, 9.6).copy(clientCpus = "0.25"),
        )
        assertEquals(
            "Conditions: closed loop, 64 connections; no CPU budget: the load client runs in the same JVM on the " +
                "same cores as the server; the load client under its own CPU quota of 0.25 cores " +
                "(-Dserverbench.clientCpus); JDK 17.0.9; plain HTTP (tls=false), HTTP/1.1. " + NOISE,
            lines(rows)[3],
        )
        val mixed = lines(rows + run("NoopBenchmark.hello", "jetty", 17_000.0, 100.0, 9.7, 9.6, 9.8))[3]
        assertTrue(
            mixed.contains(
                "the load client's own CPU quota (-Dserverbench.clientCpus) differs between rows (cores: " +
                    "0.25, none)",
            ),
            mixed,
        )
        assertFalse(lines(quickLike)[3].contains("quota"), "no quota, not said")
    }

    @Test
    fun `conditions that differ between groups are said per group`() {
        fun cpu(server: String, cpus: String, jdk: String) = run(
            "CpuBenchmark.direct", server, 1_000.0, 10.0, 50.0,
            49.0, 51.0, mapOf("concurrency" to "400", "limit" to "1000", "cpus" to cpus), jdk = jdk,
        )
        val text = lines(
            listOf(
                cpu("netty", "1", "17.0.9"),
                cpu("tomcat", "1", "21.0.2"),
                cpu("netty", "unlimited", "17.0.9"),
                cpu("tomcat", "unlimited", "17.0.9"),
            ),
        )
        assertEquals(
            "Conditions: closed loop, 400 connections; the load client in the same JVM as the server, never " +
                "under its CPU budget; plain HTTP (tls=false), HTTP/1.1.",
            text[3].substringBefore(" \"Beyond"),
        )
        assertTrue(text[5].startsWith("- **Cpu** (cpus=1; JDK 17.0.9/21.0.2): most req/s"), text[5])
        assertTrue(text[6].startsWith("- **Cpu** (no CPU budget; JDK 17.0.9): most req/s"), text[6])
    }

    @Test
    fun `the JDK comes from the result file, and a sweep's groups are labelled by the swept parameter`(
        @TempDir dir: File,
    ) {
        fun result(server: String, limit: Int, score: Int) = """{
            "benchmark": "serverbench.benchmarks.CpuBenchmark.direct", "jdkVersion": "17.0.12",
            "params": {"server": "$server", "limit": "$limit", "concurrency": "64",
            "cpus": "unlimited", "cpuset": "none"},
            "primaryMetric": {"score": $score, "scoreError": 10, "scoreConfidence": [${score - 10}, ${score + 10}],
            "scoreUnit": "ops/s"}, "secondaryMetrics": {}}"""
        val file = File(dir, "r.json").apply {
            writeText(
                "[" + listOf(
                    result("netty", 1000, 500),
                    result("tomcat", 1000, 400),
                    result("netty", 100, 900),
                    result("tomcat", 100, 950),
                ).joinToString(",") + "]",
            )
        }
        val runs = Results.read(file)
        assertEquals("17.0.12", runs.first().jdkVersion)
        val text = lines(runs)
        assertTrue(
            text[3].startsWith(
                "Conditions: closed loop, 64 connections; no CPU budget: the load client runs " +
                    "in the same JVM on the same cores as the server; JDK 17.0.12; plain HTTP (tls=false), HTTP/1.1.",
            ),
            text[3],
        )
        assertEquals(
            "- **Cpu** limit=100: most req/s **tomcat direct**: 950.0 vs 900.0 (netty direct), +5.6 %, " +
                "within noise.",
            text[5],
        )
        assertEquals(
            "- **Cpu** limit=1000: most req/s **netty direct**: 500.0 vs 400.0 (tomcat direct), +25 %, " +
                "beyond noise.",
            text[6],
        )
    }

    @Test
    fun `one candidate gets one line, a family of one candidate over several points one line in all`() {
        val one = lines(listOf(run("NoopBenchmark.hello", "netty", 43_254.0, 417.0, 4.95, 4.8, 5.1)))
        assertEquals(
            "- **Noop**: only **netty hello** ran: 43,254 req/s, p99 4.95 ms (no work per request: the " +
                "ceiling).",
            one[5],
        )
        assertEquals(7, one.size, "$one") // the heading's blank line, heading, blank, conditions, blank, line, end
        val swept = lines(
            listOf("100", "1000", "10000").map {
                run("CpuBenchmark.direct", "tomcat", 1_000.0, 10.0, 5.0, 4.0, 6.0, mapOf("limit" to it))
            },
        )
        assertEquals(
            listOf("- **Cpu**: only tomcat direct ran (3 parameter points), nothing to compare it with.", ""),
            swept.drop(5),
        )
        assertEquals("", Findings.markdown(emptyList()))
    }

    @Test
    fun `the report opens with the findings when alone, not against a baseline`() {
        val alone = Report.markdown(quickLike, "quick.json", null, null)
        val findings = alone.indexOf("\n## Findings\n")
        assertTrue(findings in 0 until alone.indexOf("\n## BlockingIo\n"), alone)
        assertTrue(alone.indexOf("Closed-loop figures") < findings, alone)
        assertFalse(Report.markdown(quickLike, "quick.json", quickLike, "base.json").contains("Findings"))
    }

    @Test
    fun `after live findings the rows' findings say they were measured fork by fork, and which to believe`() {
        val live = Report.Links(live = "\n## Findings, measured live: tomcat ÷ netty\n\n- **Cpu direct**: …\n")
        val md = Report.markdown(quickLike, "quick.json", null, null, live)
        val rows = md.indexOf("\n## Findings of the rows, fork by fork\n")
        assertTrue(rows > md.indexOf("## Findings, measured live"), md)
        assertTrue(md.contains("where a line here and the live findings above disagree, the live ones hold"), md)
        assertFalse(md.contains("\n## Findings\n"), md)
    }

    private companion object {
        /** What the findings call beyond noise, said once under the conditions. */
        const val NOISE = "\"Beyond noise\" counts forks: a row is one fork, and forks of one configuration differ " +
            "by more than one fork's iterations do, so each row's interval is first widened by the between-fork " +
            "allowance of ±7.3 % (for forks whose means vary by up to 4 %, docs/warmup.md: two forks of one " +
            "configuration are then marked at most 1 in 100 times). Then for req/s, the two widened 99.9 % intervals " +
            "do not overlap; for p99, the widened ranges of their per-iteration values do not overlap, which happens " +
            "by chance with p = 2 ÷ C(m+n, m) for m and n iterations, and p is at most 0.1 % (7 iterations a side " +
            "reach it); where p is larger the line says \"ranges apart\" with its p."
    }

    @Test
    fun `the conditions and the tables say when the rows ran over HTTPS`() {
        fun noop(server: String, tls: String) = run(
            "NoopBenchmark.hello",
            server,
            40_000.0,
            400.0,
            5.0,
            4.9,
            5.1,
            mapOf("concurrency" to "64", "tls" to tls),
        )
        val https = listOf(noop("netty", "true"), noop("tomcat", "true"))
        assertTrue(lines(https)[3].contains("; over HTTPS (tls=true: TLS 1.3), HTTP/1.1. "), lines(https)[3])
        assertTrue(Report.markdown(https, "h", null, null).contains(TlsCondition.HTTPS))
        val plain = listOf(noop("netty", "false"), noop("tomcat", "false"))
        assertTrue(lines(plain)[3].contains("; plain HTTP (tls=false), HTTP/1.1. "), lines(plain)[3])
        assertFalse(Report.markdown(plain, "h", null, null).contains(TlsCondition.HTTPS))
        val both = https + plain
        assertFalse(lines(both)[3].contains("HTTP"), lines(both)[3])
        assertTrue(lines(both).any { it.startsWith("- **Noop** tls=true") }, lines(both).joinToString("\n"))
        // Rows read from a file leave tls=false out (LaterParams): their group says tls=false, not tls=null.
        val read = https + plain.map { it.copy(params = it.params - "tls") }
        assertTrue(lines(read).any { it.startsWith("- **Noop** tls=false") }, lines(read).joinToString("\n"))
        assertFalse(lines(read).any { "null" in it }, lines(read).joinToString("\n"))
    }

    /** Fails before: the line said the client ran in the server's JVM on its cores, for a server in its own process. */
    @Test
    fun `runs against a target say the server ran in a process of its own`() {
        val remote = mapOf(MetricCatalogue.SERVER_REMOTE.name to Metric(1.0, 0.0, "flag"))
        fun noop(server: String, score: Double, flag: Map<String, Metric>) =
            row("NoopBenchmark.hello", mapOf("server" to server, "concurrency" to "64"), score, 1.0, flag)
        val all = lines(listOf(noop("netty", 900.0, remote), noop("tomcat", 800.0, remote)))
            .first { it.startsWith("Conditions:") }
        assertTrue(
            all.startsWith(
                "Conditions: closed loop, 64 connections; the server in a process of its own " +
                    "(-Dserverbench.target), the load client in the benchmark's JVM",
            ),
            all,
        )
        val mixed = lines(listOf(noop("netty", 900.0, remote), noop("tomcat", 800.0, emptyMap())))
            .first { it.startsWith("Conditions:") }
        assertTrue(mixed.contains("1 of 2 runs against a server in a process of its own"), mixed)
    }
}
