package serverbench.benchmarks

import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource
import serverbench.Full
import serverbench.fixture.CpuPlacement
import serverbench.fixture.WritableCgroups
import serverbench.testing.deleteResults
import serverbench.testing.killWithDescendants
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * What an unattended run (an overnight sweep, CI) depends on: bad input is refused in one line before anything runs;
 * a failing server fails its benchmark with a reason while the others still run; the results of finished benchmarks
 * survive the launcher being killed; and nothing of ours (fork, listening port, folder) outlives a run.
 */
class ReliabilityIT {
    private val quick = arrayOf("-f", "1", "-wi", "0", "-i", "1", "-r", "1s")
    private val mapper = JsonMapper.builder().build()

    @Test
    fun `bad input is refused in one line naming the parameter, exit 2, nothing run or written`() {
        val cases = listOf(
            listOf("Noop", "-p", "server=undertow") to
                "serverbench: -p server=undertow: server must be tomcat, jetty, netty or other",
            listOf("CpuBenchmark", "-p", "limit=0") to
                "serverbench: -p limit=0: limit must be an integer from 1 to 10000000",
            listOf("CpuBenchmark", "-p", "limit=abc") to
                "serverbench: -p limit=abc: limit must be an integer from 1 to 10000000",
            listOf("Noop", "-p", "concurrency=-1") to
                "serverbench: -p concurrency=-1: concurrency must be an integer from 1 to 100000",
            listOf("BlockingIo", "-p", "delayMs=0") to
                "serverbench: -p delayMs=0: delayMs must be an integer from 1 to 600000",
            listOf("BlockingIo", "-p", "tomcatMaxThreads=zero") to
                "serverbench: -p tomcatMaxThreads=zero: tomcatMaxThreads must be 'default' or an integer from 1 to " +
                "100000",
            listOf("BlockingIo", "-p", "jettyMaxThreads=0") to
                "serverbench: -p jettyMaxThreads=0: jettyMaxThreads must be 'default' or an integer from 1 to " +
                "100000",
            listOf("Noop", "-p", "limit=1000") to
                "serverbench: -p limit=1000: no selected benchmark has a parameter 'limit'",
            listOf("NoSuchThing") to "No benchmark matches 'NoSuchThing'",
            listOf("Noop", "-wi", "many") to "Error parsing command line:",
            listOf("Noop", "-prof", "flame:event=bogus") to
                "serverbench: -prof flame: event must be one of cpu, wall, alloc, lock, ctimer, itimer, cpu-clock, " +
                "was 'bogus'",
        )
        val dir = Files.createTempDirectory("bad").toFile()
        val json = File(dir, "never.json")
        try {
            for ((args, expected) in cases) {
                val run = Jar.run(*args.toTypedArray(), "-rf", "json", "-rff", json.path, minutes = 1)
                val what = "${args.joinToString(" ")}: $run"
                assertEquals(2, run.exitCode, what)
                assertTrue(run.stderr.startsWith(expected), what)
                assertEquals(1, run.stderr.trim().lines().size, what)
                assertFalse(run.stdout.contains("# Run progress") || run.stdout.contains("Exception"), what)
                assertFalse(json.exists(), what)
            }
        } finally {
            dir.deleteRecursively()
        }
    }

    @Full
    @Test
    fun `each fault fails its benchmark with the reason, the others still run, nothing is left listening`() {
        val json = Files.createTempFile("faults", ".json").toFile()
        try {
            val run = Jar.run(
                "SelfCheckBenchmark.(status503|truncated|dieAfter|startFailure|failWhileDraining)$|NoopBenchmark.hello",
                "-p", "concurrency=4", "-p", "failAfterMs=300", *quick, "-rf", "json", "-rff", json.path,
            )
            assertEquals(1, run.exitCode, run.toString())
            val summary = run.stderr.lines().single { it.startsWith("serverbench: ") }
            assertTrue(
                summary.startsWith("serverbench: 10 of 12 benchmark runs failed; the results hold the other 2: "),
                summary,
            )
            val entries = summary.substringAfter("the other 2: ").split(Regex("; (?=SelfCheckBenchmark\\.)"))
            for (server in listOf("netty", "tomcat")) {
                for ((fault, reason) in listOf(
                    "status503" to Regex("\\d+ non-2xx; first: GET /fault/status\\?code=503 .*HTTP 503"),
                    "truncated" to Regex("\\d+ closed by server; first: GET /fault/truncated "),
                    "dieAfter" to Regex("\\d+ (closed by server|connect/read error)"),
                    "startFailure" to Regex("the $server server failed to start: .*(in use|Address already)"),
                    // Read only while draining after the last iteration: must fail the run all the same.
                    "failWhileDraining" to Regex("\\d+ non-2xx; first: GET /fault/late .*HTTP 500"),
                )) {
                    val entry = entries.singleOrNull {
                        it.startsWith("SelfCheckBenchmark.$fault (") &&
                            it.contains("server=$server")
                    }
                    assertTrue(entry != null && reason.containsMatchIn(entry), "$fault on $server: $entry\n$summary")
                }
            }
            val results = mapper.readTree(json)
            assertEquals(
                setOf("netty", "tomcat"),
                (0 until results.size()).map {
                    results[it]["params"]["server"].asString()
                }.toSet(),
            )
            assertTrue(
                (0 until results.size()).all {
                    results[it]["benchmark"].asString().endsWith("NoopBenchmark.hello")
                },
            )
            Sockets.assertClosed(run.stdout)
        } finally {
            deleteResults(json)
        }
    }

    @Full
    @ParameterizedTest
    @ValueSource(strings = ["KILL", "TERM"])
    fun `a killed launcher keeps the finished runs and leaves no fork or port behind`(signal: String) {
        val dir = Files.createTempDirectory("killed").toFile()
        val json = File(dir, "results.json")
        val started = Jar.start(
            "NoopBenchmark.hello", "-p", "server=netty", "-p", "concurrency=1,2,3,4,5", *quick,
            "-rf", "json", "-rff", json.path,
        )
        val process = started.process
        try {
            val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2)
            while (completed(json) < 2) {
                assertTrue(
                    process.isAlive && System.nanoTime() < deadline,
                    "two runs did not finish (whole output: ${started.out}):\n${started.out.readText().takeLast(4000)}",
                )
                Thread.sleep(50)
            }
            // Between two runs there is no fork for a moment: wait for the third run's.
            var family = process.descendants().toList()
            while (family.isEmpty() && process.isAlive && System.nanoTime() < deadline) {
                Thread.sleep(20)
                family = process.descendants().toList()
            }
            assertTrue(family.isNotEmpty(), "the third run's fork should be running")
            if (signal == "KILL") process.destroyForcibly() else process.destroy()
            assertTrue(process.waitFor(30, TimeUnit.SECONDS))
            assertEnded(family)
            assertEquals(2, completed(json), "the results file holds the two finished runs")
            Sockets.assertClosed(started.out.readText())
        } finally {
            killWithDescendants(process)
            dir.deleteRecursively()
        }
    }

    /** Fails before: the fork halted without its shutdown hooks, leaving its CPU budget's group until the next run. */
    @Full
    @Test
    fun `a killed launcher leaves no CPU budget group behind`() {
        val located = WritableCgroups.assume(CpuPlacement.of("1", "none"))
        val started = Jar.start(
            "NoopBenchmark.hello", "-p", "server=netty", "-p", "cpus=1", "-f", "1", "-wi", "0", "-i", "30", "-r", "1s",
        )
        val process = started.process
        try {
            val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2)
            var groups = emptyList<File>()
            while (groups.isEmpty()) {
                assertTrue(
                    process.isAlive && System.nanoTime() < deadline,
                    "no fork made its group: ${started.out.readText().takeLast(4000)}",
                )
                Thread.sleep(100)
                groups = process.descendants().toList().flatMap { p ->
                    located.hierarchies.map { File(it.base, "serverbench-${p.pid()}") }
                }.filter { it.isDirectory }
            }
            val family = process.descendants().toList()
            process.destroy()
            assertTrue(process.waitFor(30, TimeUnit.SECONDS))
            assertEnded(family)
            assertEquals(emptyList(), groups.filter { it.exists() }, "groups left behind")
        } finally {
            killWithDescendants(process)
        }
    }

    /**
     * Fails before: a fork whose launcher was killed halted without stopping its server, so Tomcat's and Jetty's
     * folders in the temporary directory (deleted when the server stops) stayed there. The forks get a temporary
     * directory of their own to look at.
     */
    @Full
    @ParameterizedTest
    @ValueSource(strings = ["tomcat", "jetty"])
    fun `a killed launcher leaves no server folders in the temporary directory`(server: String) {
        val tmp = Files.createTempDirectory("fork-tmp").toFile()
        val started = Jar.start(
            "NoopBenchmark.hello", "-p", "server=$server", "-f", "1", "-wi", "0", "-i", "30", "-r", "1s",
            "-jvmArgsAppend", "-Djava.io.tmpdir=${tmp.path}",
        )
        val process = started.process
        try {
            val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2)
            // The fork's setup line, after the run's header: the class-data archive's own short run comes first.
            while (!started.out.readText().substringAfterLast("# Run progress", "").contains("context started")) {
                assertTrue(
                    process.isAlive && System.nanoTime() < deadline,
                    "the fork did not measure: ${started.out.readText().takeLast(4000)}",
                )
                Thread.sleep(100)
            }
            val made = tmp.list().orEmpty().sorted()
            assertTrue(made.isNotEmpty(), "$server made no folder in the forks' temporary directory ${tmp.path}")
            val family = process.descendants().toList()
            process.destroyForcibly()
            assertTrue(process.waitFor(30, TimeUnit.SECONDS))
            assertEnded(family)
            assertEquals(emptyList(), tmp.list().orEmpty().sorted(), "left behind of $made")
        } finally {
            killWithDescendants(process)
            tmp.deleteRecursively()
        }
    }

    /** Each of the launcher's forks ends within 30 s of it. */
    private fun assertEnded(family: List<ProcessHandle>) {
        for (p in family) {
            assertTrue(
                !p.onExit().get(30, TimeUnit.SECONDS).isAlive,
                "fork ${p.pid()} outlived the launcher",
            )
        }
    }

    private fun completed(json: File): Int = if (!json.isFile ||
        json.length() == 0L
    ) {
        0
    } else {
        mapper.readTree(json).size()
    }
}

/**
 * The ports a run's servers announced, checked against what listens on this machine (Linux /proc) after the run.
 * Only those ports: other processes on the machine (a build, another test) open and close their own meanwhile.
 */
object Sockets {
    fun listeningPorts(): Set<Int> = listOf("/proc/net/tcp", "/proc/net/tcp6").map(::File).filter { it.isFile }
        .flatMap { it.readLines().drop(1) }
        .map { it.trim().split(Regex("\\s+")) }
        .filter { it.size > 3 && it[3] == "0A" }
        .map { it[1].substringAfterLast(':').toInt(16) }
        .toSet()

    /** "serverbench: netty on /127.0.0.1:41234: context started ..." */
    fun announced(output: String): Set<Int> =
        Regex("serverbench: \\w+ on /?127\\.0\\.0\\.1:(\\d+):").findAll(output).map {
            it.groupValues[1].toInt()
        }.toSet()

    fun assertClosed(output: String) {
        val ports = announced(output)
        assertTrue(ports.isNotEmpty(), "the run announced no server port:\n$output")
        if (!File("/proc/net/tcp").isFile) return
        assertEquals(emptySet(), ports intersect listeningPorts(), "server ports still listening after the run")
    }
}
