package serverbench.benchmarks

import org.HdrHistogram.Histogram
import org.HdrHistogram.HistogramLogReader
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import serverbench.Full
import serverbench.client.LoadClient
import serverbench.metrics.RunFiles
import serverbench.testing.deleteResults
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.nio.file.Files
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * The shaded jar, run the way the README tells users to: it lists the benchmarks, runs both stacks with the
 * `latency.*`, `errors` and `client.*` metrics in its JSON, and fails a broken benchmark with one line.
 */
class JarSmokeIT {
    private val tiny = arrayOf("-f", "1", "-wi", "1", "-w", "1s", "-i", "2", "-r", "1s")

    /** `server.inFlightMax` comes from the server probe, off unless switched on. */
    private val probeOn = "-D${serverbench.app.ServerProbe.PROPERTY}=true"

    @Test
    fun `lists the benchmarks`() {
        val run = Jar.run("-l")
        assertEquals(0, run.exitCode, run.toString())
        for (name in listOf(
            "NoopBenchmark.hello", "DelayBenchmark.delay", "CpuBenchmark.direct", "CpuBenchmark.suspendFun",
            "CpuBenchmark.withContextDefault", "CpuBenchmark.completableFuture", "CpuBenchmark.monoParallel",
            "CpuCooperativeBenchmark.cooperative", "SelfCheckBenchmark.status500",
        )) {
            assertTrue(run.stdout.contains("serverbench.benchmarks.$name"), "missing $name in\n${run.stdout}")
        }
    }

    @Test
    fun `a smoke run of both stacks writes the score and every metric`() {
        val json = Files.createTempFile("smoke", ".json").toFile()
        try {
            val run = Jar.run(
                "Noop|CpuBenchmark.direct", "-p", "limit=1000", "-p", "concurrency=8", *tiny,
                "-rf", "json", "-rff", json.path,
            )
            assertEquals(0, run.exitCode, run.toString())
            val results: JsonNode = JsonMapper.builder().build().readTree(json)
            assertEquals(4, results.size(), json.readText())
            val seen = (0 until results.size()).map { results[it] }.map {
                "${it["benchmark"].asString().substringAfterLast('.')}/${it["params"]["server"].asString()}"
            }
            assertEquals(setOf("direct/netty", "direct/tomcat", "hello/netty", "hello/tomcat"), seen.toSet())
            for (i in 0 until results.size()) assertMetrics(results[i])
            // Issue 38: each run's fork logged its 2 measured iterations (not the warmup one) beside the result file,
            // and the log, read by HdrHistogram's own reader, is the histogram of the run's latency figures.
            for (i in 0 until results.size()) assertLatencyLog(results[i], json.parentFile, iterations = 2)
            // The JVM's own warnings (serverbench's measurement guards say "serverbench: WARNING" and may fire on 1 s
            // runs).
            assertFalse(Regex("^WARNING", RegexOption.MULTILINE).containsMatchIn(run.stdout), run.stdout)
            // Two measured iterations: each run says it could not judge steadiness, and what would.
            assertTrue(run.stdout.contains("too few iterations to judge steadiness (-i 5 or more)"), run.stdout)
        } finally {
            deleteResults(json)
            RunFiles.root(json).deleteRecursively()
        }
    }

    @Full
    @Test
    fun `the blocking-IO, CompletableFuture and proxy families run on both stacks, the proxy's stub hits checked`() {
        val json = Files.createTempFile("families", ".json").toFile()
        try {
            val run = Jar.run(
                "BlockingIoBenchmark.cfFixed|CompletableFutureBenchmark.applicationTaskExecutor|" +
                    "ProxyBenchmark.webClient$",
                "-p", "delayMs=5", "-p", "workMs=5", "-p", "concurrency=8", *tiny, "-rf", "json", "-rff", json.path,
            )
            assertEquals(0, run.exitCode, run.toString())
            val results: JsonNode = JsonMapper.builder().build().readTree(json)
            assertEquals(6, results.size(), json.readText())
            for (i in 0 until results.size()) {
                val r = results[i]
                assertMetrics(r)
                val m = r["secondaryMetrics"]
                for (label in listOf("server.cpu", "server.cpuPerReq", "heap.allocPerReq", "threads.peak")) {
                    assertTrue(m.has(label) && m[label]["score"].asDouble() > 0, "${r["benchmark"]} lacks $label: $m")
                }
                assertEquals("false", r["params"]["virtualThreads"].asString())
                val server = r["params"]["server"].asString()
                assertEquals(if (server == "tomcat") "default" else "n/a", r["params"]["tomcatMaxThreads"].asString())
                assertEquals(if (server == "netty") "default" else "n/a", r["params"]["nettyIoWorkers"].asString())
            }
        } finally {
            deleteResults(json)
        }
    }

    @Full
    @Test
    fun `-prof flame writes a flamegraph of the server threads with what produced it, listed in the result file`() {
        val dir = Files.createTempDirectory("profiles").toFile()
        val json = Files.createTempFile("flame", ".json").toFile()
        try {
            val run = Jar.run(
                "CpuBenchmark.direct$", "-p", "server=netty", "-p", "limit=100000", "-p", "concurrency=8",
                "-f", "1", "-wi", "1", "-w", "2s", "-i", "1", "-r", "2s", "-prof", "flame:dir=${dir.path}",
                "-rf", "json", "-rff", json.path,
            )
            assertEquals(0, run.exitCode, run.toString())
            // A directory per session (the launcher's start time), so no later run overwrites or passes for these.
            val session = dir.listFiles()!!.single()
            assertTrue(run.stdout.contains("flamegraphs of this session go to ${session.path}/"), run.stdout)
            val out = File(session, "CpuBenchmark.direct/concurrency=8,limit=100000,rate=0,server=netty")
            val listed = JsonMapper.builder().build().readTree(json)[0]["profiles"]
            val expected = listOf("cpu.collapsed", "cpu.html", "cpu.txt")
                .map { File(out, it).relativeTo(json.parentFile).invariantSeparatorsPath }
            assertEquals(expected, (0 until listed.size()).map { listed[it].asString() })
            val html = File(out, "cpu.html")
            assertTrue(html.isFile && html.length() > 10_000, "no flamegraph in $out: ${dir.walk().toList()}")
            // The graph's samples as text (the HTML stores frame names prefix-compressed); after a steady warmup C2 may
            // have inlined isPrime into the handler, whose frame then carries its samples.
            val collapsed = File(out, "cpu.collapsed").readLines()
            assertTrue(
                collapsed.any { it.contains("isPrime") || it.contains("CpuEndpoints.direct") },
                "the primes " +
                    "code is missing from the graph",
            )
            assertTrue(collapsed.none { it.contains("jmhTest") }, "the load client's thread must be left out")
            val samples = collapsed.sumOf { it.substringAfterLast(' ').toLong() }
            val primes = collapsed.filter { it.contains("CpuEndpoints.direct") }
                .sumOf { it.substringAfterLast(' ').toLong() }
            assertTrue(
                primes * 2 > samples,
                "the handler (primes inlined into it) should hold most samples: $primes " +
                    "of $samples",
            )
            val meta = File(out, "cpu.txt").readText()
            assertTrue(
                meta.contains("event: cpu") && meta.contains("engine: ctimer") && Regex(
                    "samples: " +
                        "[1-9]",
                ).containsMatchIn(meta),
                meta,
            )
            assertTrue(meta.contains("graph total: $samples (the load client left out"), meta)
        } finally {
            dir.deleteRecursively()
            deleteResults(json)
        }
    }

    @Full
    @Test
    fun `event=cpu-clock samples with perf_events where the kernel allows it, else says why in one line`() {
        val dir = Files.createTempDirectory("profiles").toFile()
        try {
            val run = Jar.run(
                "CpuBenchmark.direct$", "-p", "server=netty", "-p", "limit=1000", "-p", "concurrency=8",
                *tiny, "-prof", "flame:event=cpu-clock;dir=${dir.path}",
            )
            val reason = serverbench.profile.SamplingEngines.unavailable("cpu-clock")
            if (reason != null) {
                assertEquals(2, run.exitCode, run.toString())
                assertEquals("serverbench: -prof $reason", run.stderr.trim())
                return
            }
            assertEquals(0, run.exitCode, run.toString())
            val session = dir.listFiles()!!.single()
            val out = File(session, "CpuBenchmark.direct/concurrency=8,limit=1000,rate=0,server=netty")
            val meta = File(out, "cpu-clock.txt").readText()
            assertTrue(meta.contains("engine: perf_events") && Regex("samples: [1-9]").containsMatchIn(meta), meta)
        } finally {
            dir.deleteRecursively()
        }
    }

    @Full
    @Test
    fun `-prof flame-overhead profiles the 1st and 4th of every four iterations and reports the cost once, unpadded`() {
        val dir = Files.createTempDirectory("profiles").toFile()
        val json = Files.createTempFile("overhead", ".json").toFile()
        try {
            val run = Jar.run(
                "CpuBenchmark.direct$", "-p", "server=netty", "-p", "limit=1000", "-p", "concurrency=8",
                "-f", "1", "-wi", "1", "-w", "1s", "-i", "8", "-r", "1s", "-prof", "flame:overhead;dir=${dir.path}",
                "-rf", "json", "-rff", json.path,
            )
            assertEquals(0, run.exitCode, run.toString())
            val line = Regex("serverbench: profiling overhead (-?[0-9.]+) % .*2 ABBA blocks").find(run.stdout)
            assertTrue(line != null, run.stdout)
            val session = dir.listFiles()!!.single()
            val out = File(session, "CpuBenchmark.direct/concurrency=8,limit=1000,rate=0,server=netty")
            val meta = File(out, "cpu.txt").readText()
            assertTrue(
                meta.contains("overhead: ${line.groupValues[1]} %") && meta.contains(
                    "profiled: the 1st and " +
                        "4th of every 4",
                ),
                meta,
            )
            assertTrue(File(out, "cpu.html").length() > 10_000, "no flamegraph in $out")
            val overhead = JsonMapper.builder().build().readTree(json)[0]["secondaryMetrics"]["flame.overhead"]
            // The figure of the console line, not divided by the 8 iterations as a padded ScalarResult would be.
            assertEquals(line.groupValues[1].toDouble(), overhead["score"].asDouble(), 0.051, overhead.toString())
            assertEquals("%", overhead["scoreUnit"].asString())

            val tooFew = Jar.run("CpuBenchmark.direct$", "-p", "server=netty", "-i", "5", "-prof", "flame:overhead")
            assertEquals(2, tooFew.exitCode, tooFew.toString())
            assertEquals(
                "serverbench: -prof flame:overhead compares profiled and plain measurement iterations in blocks of 4 " +
                    "and needs at least 8 (-i 8 or more, a multiple of 4); CpuBenchmark.direct has 5",
                tooFew.stderr.trim(),
            )
        } finally {
            dir.deleteRecursively()
            deleteResults(json)
        }
    }

    @Full
    @Test
    fun `virtual-thread variants are skipped with a notice on JDK 17`() {
        assumeTrue(Runtime.version().feature() < 21, "this JVM has virtual threads")
        val run = Jar.run("BlockingIoBenchmark.cfVirtual", *tiny)
        assertEquals(0, run.exitCode, run.toString())
        assertTrue(
            run.stdout.contains(
                "serverbench: skipped 6 runs of BlockingIoBenchmark.cfVirtual: virtual threads, " +
                    "which needs a newer JDK than this benchmark JVM's 17",
            ),
            run.stdout,
        )
        assertTrue(run.stdout.contains("serverbench: nothing left to run"), run.stdout)
        assertFalse((run.stdout + run.stderr).contains("Exception"), run.toString())
    }

    @Test
    fun `virtual-thread variants run on the newer JDK`() {
        val java = Jar.assumeNewerJava()
        val json = Files.createTempFile("virtual", ".json").toFile()
        try {
            val run = Jar.run(
                "BlockingIoBenchmark.(cfVirtual|direct)$", "-p", "delayMs=5", "-p", "concurrency=8",
                "-p", "virtualThreads=true", *tiny, "-rf", "json", "-rff", json.path, java = java,
            )
            assertEquals(0, run.exitCode, run.toString())
            val results: JsonNode = JsonMapper.builder().build().readTree(json)
            assertEquals(4, results.size(), json.readText())
        } finally {
            deleteResults(json)
        }
    }

    @Full
    @Test
    fun `runs on the newer JDK too, without warnings`() {
        val java = Jar.assumeNewerJava()
        val json = Files.createTempFile("smoke25", ".json").toFile()
        try {
            val run = Jar.run("Noop", "-p", "concurrency=8", *tiny, "-rf", "json", "-rff", json.path, java = java)
            assertEquals(0, run.exitCode, run.toString())
            val warning = Regex("^WARNING", RegexOption.MULTILINE)
            assertFalse(warning.containsMatchIn(run.stdout + run.stderr), run.toString())
            val results: JsonNode = JsonMapper.builder().build().readTree(json)
            assertEquals(2, results.size())
            for (r in (0 until results.size()).map { results[it] }) {
                assertTrue(r["jdkVersion"].asString().split('.')[0].toInt() >= 21, r["jdkVersion"].asString())
                assertMetrics(r)
            }
        } finally {
            deleteResults(json)
        }
    }

    @Full
    @Test
    fun `open loop at a fixed rate reports corrected and uncorrected latency, lateness and in-flight count`() {
        val json = Files.createTempFile("open", ".json").toFile()
        try {
            val run = Jar.run(
                "DelayBenchmark", "-p", "server=netty", "-p", "delayMs=5", "-p", "rate=200", "-p", "concurrency=8",
                *tiny, "-rf", "json", "-rff", json.path, jvmArgs = listOf(probeOn),
            )
            assertEquals(0, run.exitCode, run.toString())
            assertTrue(run.stdout.contains("open loop, 200 req/s on up to 8 connections"), run.stdout)
            val r = JsonMapper.builder().build().readTree(json)[0]
            assertMetrics(r)
            val m = r["secondaryMetrics"]
            assertTrue(
                r["primaryMetric"]["score"].asDouble() in 180.0..220.0,
                "req/s at rate 200: " +
                    "${r["primaryMetric"]}",
            )
            for (label in listOf(
                "latency.uncorrected.p50",
                "latency.uncorrected.p99",
                "openLoop.late",
                "openLoop.dropped",
                "openLoop.connections",
                "warning.behindSchedule",
                "warning.clientSaturated",
                "server.inFlightMax",
            )) {
                assertTrue(m.has(label), "lacks $label: $m")
            }
            assertFalse(m.has("littlesLaw"), "Little's law is a closed-loop check")
            assertTrue(m["server.inFlightMax"]["score"].asDouble() in 1.0..8.0, "in flight ${m["server.inFlightMax"]}")
        } finally {
            deleteResults(json)
        }
    }

    @Full
    @Test
    fun `a closed loop's server sees exactly the concurrency, and Little's law holds`() {
        val json = Files.createTempFile("closed", ".json").toFile()
        try {
            // 50 ms: ~60 requests per connection over these 3 s, under Tomcat's 100 per keep-alive connection. A
            // replaced connection's first request can be dispatched before the closed one's last has left the count (17
            // of 16 seen once with 20 ms), so this exact check runs without reconnects, and so without the steady
            // warmup (its 10 s or more would reach the 100th request of every connection inside the measurement).
            val run = Jar.run(
                "DelayBenchmark", "-p", "server=tomcat", "-p", "delayMs=50", "-p", "concurrency=16", *tiny,
                "-rf", "json", "-rff", json.path, jvmArgs = listOf(probeOn, "-Dserverbench.warmup=off"),
            )
            assertEquals(0, run.exitCode, run.toString())
            assertTrue(run.stdout.contains("closed loop, 16 connections"), run.stdout)
            val m = JsonMapper.builder().build().readTree(json)[0]["secondaryMetrics"]
            assertFalse(m.has("reconnects"), "the server closed connections: ${m["reconnects"]}")
            assertEquals(16.0, m["server.inFlightMax"]["score"].asDouble(), "$m")
            assertTrue(m["littlesLaw"]["score"].asDouble() in 0.9..1.1, "${m["littlesLaw"]}")
            assertEquals(0.0, m["warning.littlesLaw"]["score"].asDouble())
        } finally {
            deleteResults(json)
        }
    }

    @Test
    fun `a bad rate is refused in one line before anything runs`() {
        val run = Jar.run("DelayBenchmark", "-p", "rate=-5")
        assertEquals(2, run.exitCode, run.toString())
        assertEquals("serverbench: -p rate=-5: rate must be an integer from 0 to 1000000", run.stderr.trim())
    }

    @Test
    fun `a benchmark mode other than throughput is refused in one line before anything runs`() {
        val run = Jar.run("NoopBenchmark", "-bm", "avgt")
        assertEquals(2, run.exitCode, run.toString())
        assertEquals(
            "serverbench: -bm avgt is not supported: the score is successful requests/s (throughput); " +
                "latency is in latency.* (every request, HdrHistogram); only -bm thrpt",
            run.stderr.trim(),
        )
        assertFalse(run.stdout.contains("# Run progress"), run.stdout)
    }

    @Test
    fun `scripts-bench runs a suite end to end, names its suites, and refuses an unknown one in one line`() {
        fun bench(vararg args: String): Triple<Int, String, String> =
            Jar.script("bench", *args).let { Triple(it.exitCode, it.stdout, it.stderr) }
        val (listed, list, _) = bench("--list")
        assertEquals(0, listed)
        // In the order bash's glob lists the files (by whole file name: "db-pool.suite" before "db.suite").
        val suites = File("benchmarks").listFiles { f -> f.extension == "suite" }!!
            .sortedBy { it.name }.map { it.nameWithoutExtension }
        for (suite in suites) assertTrue(list.lines().any { it.startsWith("$suite ") }, "--list lacks $suite:\n$list")
        // A whole suite, shortened: the estimate first, one line per run, then the findings and the report's tables;
        // results, report and JMH's full log kept.
        val before = File("jmh-results").listFiles()?.toSet() ?: emptySet()
        val (ran, out, runErr) = bench("quick", "-f", "1", "-wi", "0", "-i", "1", "-r", "1s", "-p", "server=netty")
        val written = (File("jmh-results").listFiles()?.toSet() ?: emptySet()) - before
        try {
            assertEquals(0, ran, out + runErr)
            assertTrue(out.contains("serverbench: 4 runs planned, estimated duration"), out)
            assertTrue(
                Regex("""\[4/4, ETA [0-9:]+] CpuBenchmark.direct \(server=netty, limit=10000\): [0-9,.]+ req/s, p99 """)
                    .containsMatchIn(out),
                out,
            )
            assertFalse(out.contains("Iteration   1:"), "JMH's own output belongs in the log:\n$out")
            for (section in listOf("Findings", "BlockingIo", "Cpu")) assertTrue(out.contains("## $section\n"), out)
            val quick = written.filter { it.name.startsWith("quick-") }
            val files = quick.filter { it.isFile }
            assertEquals(setOf("json", "md", "log"), files.map { it.extension }.toSet(), "$written")
            // Beside the results, the runs' own files (RunFiles): each run's latency log.
            val json = quick.first { it.extension == "json" }
            assertTrue(File(json.path.removeSuffix(".json")).walk().any { it.extension == "hlog" }, "$written")
            val log = written.first { it.name.startsWith("quick-") && it.extension == "log" }.readText()
            assertTrue(log.contains("Iteration   1:") && log.contains("BlockingIoBenchmark.nonBlocking"), log)
        } finally {
            written.forEach { it.deleteRecursively() }
        }
        val (status, _, err) = bench("nosuch")
        assertEquals(2, status)
        assertEquals(
            "scripts/bench: unknown suite 'nosuch'; suites: ${suites.joinToString(", ")} (or a path to a .suite file)",
            err.trim(),
        )
        // A user's own suite file, outside benchmarks/, runs the same way and names its results after itself.
        val mine = File(Files.createTempDirectory("suite").toFile(), "my-question.suite").apply {
            writeText(
                "description: Noop on netty\nduration: 1 min\nbenchmarks: NoopBenchmark.hello$\n" +
                    "params: -p server=netty\ntiming: -f 1 -i 1 -r 1s\n",
            )
        }
        val (own, ownOut, ownErr) = bench(mine.path)
        val ownFiles = (File("jmh-results").listFiles()?.toSet() ?: emptySet()) - before
        try {
            assertEquals(0, own, ownOut + ownErr)
            assertTrue(ownOut.contains("serverbench: 1 run planned"), ownOut)
            assertEquals(
                setOf("json", "md", "log"),
                ownFiles.filter { it.name.startsWith("my-question-") && it.isFile }.map { it.extension }.toSet(),
                "$ownFiles",
            )
        } finally {
            ownFiles.forEach { it.deleteRecursively() }
            mine.parentFile.deleteRecursively()
        }
    }

    @Test
    fun `a failing endpoint fails the run with one line and no score`() {
        val json = Files.createTempFile("failing", ".json").toFile()
        try {
            val run = Jar.run(
                "SelfCheckBenchmark.status500", "-p", "server=netty", *tiny, "-foe", "true", "-rf", "json", "-rff",
                json.path,
            )
            assertEquals(1, run.exitCode, run.toString())
            val lines = run.stderr.lines().filter { it.isNotBlank() }
            assertEquals(2, lines.size, run.stderr) // the failure, then the run's summary
            assertTrue(
                lines[0].startsWith(
                    "serverbench: benchmark failed: 1 failed request: 1 non-2xx; first: " +
                        "GET /fault/status?code=500 on ",
                ),
                lines[0],
            )
            assertTrue(lines[0].contains("HTTP 500 \"status 500\""), lines[0])
            assertTrue(lines[1].startsWith("serverbench: 1 of 1 benchmark runs failed"), lines[1])
            assertFalse(json.exists() && json.readText().contains("\"score\""), "a failed benchmark has no score")
        } finally {
            deleteResults(json)
        }
    }

    @Full
    @Test
    fun `without -foe the other benchmarks still run, their results are kept, and the exit status says one failed`() {
        val json = Files.createTempFile("partial", ".json").toFile()
        try {
            val run = Jar.run(
                "NoopBenchmark.hello|SelfCheckBenchmark.wrongBody",
                "-p",
                "server=netty",
                *tiny,
                "-rf",
                "json",
                "-rff",
                json.path,
            )
            assertEquals(1, run.exitCode, run.toString())
            assertTrue(run.stderr.contains("serverbench: 1 of 2 benchmark runs failed"), run.stderr)
            // The summary says why, without the reader digging through the fork's stack trace.
            assertTrue(
                run.stderr.contains("SelfCheckBenchmark.wrongBody (server=netty, ") &&
                    run.stderr.contains("): 1 failed request: 1 invalid body; first: GET /noop/hello"),
                run.stderr,
            )
            val results: JsonNode = JsonMapper.builder().build().readTree(json)
            assertEquals(1, results.size())
            assertEquals("serverbench.benchmarks.NoopBenchmark.hello", results[0]["benchmark"].asString())
            assertTrue(run.stdout.contains("first: GET /noop/hello on "), run.stdout)
            assertTrue(
                run.stdout.contains(
                    "body \"hello\" (5 bytes), expected \"not what the server " +
                        "says\"",
                ),
                run.stdout,
            )
            assertFalse(
                run.stdout.contains("stray running threads"),
                "a failed fork must stop its " +
                    "server:\n${run.stdout}",
            )
        } finally {
            deleteResults(json)
        }
    }

    @Full
    @Test
    fun `a failure in the middle of the measurement discards the iterations measured before it`() {
        val json = Files.createTempFile("midrun", ".json").toFile()
        try {
            // Warmup 1 s, then 3 measurement iterations of 4 s; the endpoint fails 7 s after the setup's probe, in
            // the second one as long as the setup's own work after the probe takes under 2 s (1 s iterations left
            // 0.5 s, which a slow, busy machine overran). The steady warmup is off: it would meet the failure first.
            // The failure is a 500, so the self-checks' 2 s timeout is not needed: a cold server on a slow machine
            // once left a request 2 s unanswered in the first iteration, which failed it there instead.
            val run = Jar.run(
                "SelfCheckBenchmark.failAfter", "-p", "server=netty", "-p", "failAfterMs=7000",
                "-f", "1", "-wi", "1", "-w", "1s", "-i", "3", "-r", "4s", "-rf", "json", "-rff", json.path,
                jvmArgs = listOf("-Dserverbench.warmup=off", "-Dserverbench.timeoutMs=30000"),
            )
            assertEquals(1, run.exitCode, run.toString())
            assertTrue(run.stdout.contains("Iteration   1: "), run.stdout)
            assertTrue(
                run.stdout.contains(
                    "SelfCheckBenchmark.failAfter (concurrency=64, failAfterMs=7000, rate=0, " +
                        "server=netty) FAILED",
                ),
                run.stdout,
            )
            assertFalse(
                run.stdout.contains(
                    "Result " +
                        "\"serverbench.benchmarks.SelfCheckBenchmark.failAfter\"",
                ),
                run.stdout,
            )
            assertFalse(
                run.stdout.contains("SelfCheckBenchmark.failAfter  "),
                "no row in the final " +
                    "table:\n${run.stdout}",
            )
            assertTrue(run.stderr.contains("serverbench: 1 of 1 benchmark runs failed"), run.stderr)
            assertFalse(
                json.exists() && json.readText().contains("failAfter"),
                "a failed run is never written as a " +
                    "result",
            )
        } finally {
            deleteResults(json)
        }
    }

    @Full
    @Test
    fun `a failure that starts under load fails the benchmark mid-run`() {
        val run = Jar.run("SelfCheckBenchmark.failAfter", "-p", "server=tomcat", *tiny, "-foe", "true")
        assertEquals(1, run.exitCode, run.toString())
        assertTrue(run.stderr.contains("non-2xx; first: GET /fault/failAfter?ms=1000"), run.stderr)
        assertTrue(run.stdout.contains("<failure>"), run.stdout)
        assertFalse(run.stdout.contains("stray running threads"), "a failed fork must stop its server:\n${run.stdout}")
    }

    /**
     * The run's latency logs (`latency-pid<N>.hlog`, listed in its `files`): one per fork, a line per measured
     * iteration, and merged they give exactly the run's `latency.*` figures.
     */
    private fun assertLatencyLog(r: JsonNode, dir: File, iterations: Int, forks: Int = 1) {
        val name = "${r["benchmark"].asString()} ${r["params"]}"
        val listed = r[RunFiles.FIELD]
        val logs = (0 until (listed?.size() ?: 0)).map { File(dir, listed[it].asString()) }
            .filter { it.extension == "hlog" && RunFiles.what(it) == "latency" }
        assertEquals(forks, logs.size, "$name: one latency log per fork in $listed")
        val intervals = logs.flatMap { log ->
            HistogramLogReader(log).use { reader ->
                generateSequence { reader.nextIntervalHistogram() }.map { it as Histogram }.toList()
            }
        }
        assertEquals(forks * iterations, intervals.size, "$name: a line per measured iteration, no warmup")
        val merged = Histogram(LoadClient.HIGHEST_TRACKABLE_MICROS, 3).also { m -> intervals.forEach(m::add) }
        val m = r["secondaryMetrics"]
        val expected = mapOf(
            "latency.mean" to merged.mean,
            "latency.p50" to merged.getValueAtPercentile(50.0).toDouble(),
            "latency.p99" to merged.getValueAtPercentile(99.0).toDouble(),
            "latency.p99.9" to merged.getValueAtPercentile(99.9).toDouble(),
            "latency.max" to merged.maxValue.toDouble(),
        )
        for ((label, micros) in expected) {
            assertEquals(micros / 1000.0, m[label]["score"].asDouble(), 1e-9, "$name $label from ${logs.first()}")
        }
    }

    private fun assertMetrics(r: JsonNode) {
        val name = "${r["benchmark"].asString()} ${r["params"]}"
        assertTrue(r["primaryMetric"]["score"].asDouble() > 0, name)
        assertEquals("ops/s", r["primaryMetric"]["scoreUnit"].asString())
        val m = r["secondaryMetrics"]
        val percentiles = listOf("latency.p50", "latency.p90", "latency.p99", "latency.p99.9", "latency.max")
        for (label in listOf("latency.mean") + percentiles) {
            assertTrue(m.has(label), "$name lacks $label: $m")
            assertEquals("ms", m[label]["scoreUnit"].asString())
            assertTrue(m[label]["score"].asDouble() > 0, "$name $label")
        }
        val p = percentiles.map { m[it]["score"].asDouble() }
        assertEquals(p.sorted(), p, "$name percentiles must not decrease")
        assertEquals(0.0, m["errors"]["score"].asDouble(), name)
        assertTrue(m["client.cpu"]["score"].asDouble() in 0.0..1.0, "$name client.cpu")
        assertTrue(m["client.cpuPerReq"]["score"].asDouble() > 0, "$name client.cpuPerReq")
        assertEquals(2, m["latency.p99"]["rawData"][0].size(), "$name: one value per measured iteration, no warmup")
        // The steady-state warmup ran (bounded to 8 s here) and was recorded; two iterations are too few to judge
        // steadiness: no verdict, so no warning.notSteady (0 would read as steady, 1 as not).
        assertTrue(m["warmup.seconds"]["score"].asDouble() in 4.0..20.0, "$name warmup.seconds ${m["warmup.seconds"]}")
        assertFalse(m.has("warning.notSteady"), "$name warning.notSteady ${m["warning.notSteady"]}")
        // The results README explains every metric a run writes (families of names by their prefix).
        val documented = File("jmh-results/README.md").readText()
        for (metric in m.propertyNames()) {
            val family = Regex("^(errors|warning)\\..+").find(metric)?.let { "`${it.groupValues[1]}.<" }
            assertTrue(documented.contains(family ?: "`$metric`"), "jmh-results/README.md does not explain $metric")
        }
    }
}
