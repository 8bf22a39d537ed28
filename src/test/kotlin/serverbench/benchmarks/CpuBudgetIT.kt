package serverbench.benchmarks

import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource
import serverbench.Full
import serverbench.fixture.BundledPostgres
import serverbench.fixture.Cgroups
import serverbench.fixture.CpuBudget
import serverbench.fixture.CpuPlacement
import serverbench.params.CpuParams
import serverbench.testing.deleteResults
import serverbench.testing.killWithDescendants
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * `-p cpus` / `-p cpuset` through the jar: the server's CPU stays within its budget and the throttling shows, bad
 * values are refused before anything starts, and no cgroup outlives a run, a failed run or a killed launcher. The runs
 * that need cgroups are skipped, saying why, where they cannot be written; CI runs as root, so they run there.
 */
@Full
class CpuBudgetIT {
    private val mapper = JsonMapper.builder().build()
    private val quick = arrayOf("-f", "1", "-i", "2", "-r", "2s")
    private val located = Cgroups.locate(CpuPlacement(1.0, null))
    private val problem = CpuBudget.probe(CpuPlacement(1.0, null), located)

    private fun assumeCgroups() {
        // Once per run, not once per skipped test: the reports have it for each.
        if (problem != null && told.compareAndSet(false, true)) println("CpuBudgetIT: skipped, $problem")
        assumeTrue(problem == null, problem)
    }

    /** Groups serverbench made (in the cpu controller's hierarchy). */
    private fun groups(): List<String> = located.hierarchies.firstOrNull()?.base?.list().orEmpty().filter {
        it.startsWith(Cgroups.PREFIX)
    }.sorted()

    @BeforeEach
    fun noGroupsBefore() {
        if (problem == null) assertEquals(emptyList(), groups(), "a group was left before this test")
    }

    /** Jetty runs its requests on a pool of its own (qtp-*), made after the budget: they must land in its group. */
    @ParameterizedTest
    @ValueSource(strings = ["tomcat", "jetty"])
    fun `under cpus=0_5 the server uses at most half a core, is throttled, and nothing is left`(server: String) {
        assumeCgroups()
        val json = Files.createTempFile("budget", ".json").toFile()
        try {
            val run = Jar.run(
                "CpuBenchmark.direct$", "-p", "server=$server", "-p", "limit=100000", "-p", "concurrency=4",
                "-p", "cpus=0.5", *quick, "-rf", "json", "-rff", json.path,
            )
            assertEquals(0, run.exitCode, run.toString())
            assertTrue(
                run.stdout.contains("serverbench: CPU budget cpus=0.5: ") &&
                    run.stdout.contains("of the harness that ran before the server, JMH's among them") &&
                    run.stdout.contains("availableProcessors() = 1"),
                run.stdout,
            )
            val result: JsonNode = mapper.readTree(json)[0]
            val metrics = result["secondaryMetrics"]
            fun score(name: String) = metrics[name]["score"].asDouble()
            assertTrue(score("server.cpu") <= 0.55, "server.cpu ${score("server.cpu")}")
            assertTrue(score("server.throttled") > 0 && score("server.throttledMs") > 0, metrics.toString())
            assertEquals(0.0, score("errors"))
            assertTrue(result["primaryMetric"]["score"].asDouble() > 0)
        } finally {
            deleteResults(json)
        }
        assertEquals(emptyList(), groups())
    }

    @Test
    fun `under a cpuset PostgreSQL runs in a group of its own on every core, and nothing is left`() {
        BundledPostgres.assume()
        assumeCgroups()
        val cores = CpuParams.machineCores()
        assumeTrue(cores >= 2, "needs 2 cores")
        val pinned = CpuBudget.probe(CpuPlacement(null, listOf(cores - 1)))
        assumeTrue(pinned == null, pinned)
        val run = Jar.run(
            "DatabaseBenchmark.jdbc$", "-p", "server=netty", "-p", "query=nextval", "-p", "concurrency=4",
            "-p", "cpuset=${cores - 1}", "-f", "1", "-wi", "0", "-i", "1", "-r", "1s",
            jvmArgs = listOf("-Dserverbench.warmup=off"),
        )
        assertEquals(0, run.exitCode, run.toString())
        val all = CpuPlacement.list((0 until cores).toList())
        assertTrue(
            Regex(
                "PostgreSQL on port \\d+ \\(outside the CPU budget, in \\S+/${Cgroups.PREFIX}\\d+/database " +
                    "\\(no quota, cores $all\\)\\), schema ready",
            ).containsMatchIn(run.stdout),
            run.stdout,
        )
        val cpuset = Cgroups.locate(CpuPlacement(null, listOf(cores - 1))).hierarchies.first().base
        assertEquals(emptyList(), cpuset.list().orEmpty().filter { it.startsWith(Cgroups.PREFIX) }, cpuset.path)
    }

    @Test
    fun `bad budgets are refused in one line naming the parameter, exit 2, nothing started`() {
        val cores = CpuParams.machineCores()
        for (bad in listOf("cpus=0", "cpus=-1", "cpus=abc", "cpus=${cores + 1}", "cpuset=${cores + 5}")) {
            val run = Jar.run("NoopBenchmark.hello$", "-p", bad, *quick)
            assertEquals(2, run.exitCode, "$bad: $run")
            val name = bad.substringBefore('=')
            assertTrue(
                run.stderr.trim().lines().size == 1 && run.stderr.startsWith(
                    "serverbench: -p $bad: $name " +
                        "must be ",
                ),
                "$bad: $run",
            )
            assertFalse(
                run.stdout.contains("run planned") || run.stdout.contains("# Fork"),
                "$bad: something " +
                    "started: $run",
            )
        }
        // Where no cgroup can be made: simulated with a mount table that has none.
        val noCgroups = listOf("-Dserverbench.internal.mountinfo=/dev/null")
        val run = Jar.run("NoopBenchmark.hello$", "-p", "cpus=1", *quick, jvmArgs = noCgroups)
        assertEquals(2, run.exitCode, run.toString())
        assertTrue(
            run.stderr.trim().lines().size == 1 && run.stderr.startsWith(
                "serverbench: -p cpus: no cgroup " +
                    "hierarchy with the cpu controller",
            ),
            run.toString(),
        )
        assertFalse(run.stdout.contains("# Fork"), run.toString())
    }

    @Test
    fun `a run that fails under a budget leaves no group`() {
        assumeCgroups()
        val run = Jar.run("SelfCheckBenchmark.status500$", "-p", "server=netty", "-p", "cpus=1", *quick)
        assertEquals(1, run.exitCode, run.toString())
        assertEquals(emptyList(), groups())
    }

    @Test
    fun `the group of a fork killed with -9 is removed by the next budgeted run`() {
        assumeCgroups()
        val started = Jar.start(
            "NoopBenchmark.hello$", "-p", "server=netty", "-p", "cpus=1",
            "-f", "1", "-i", "20", "-r", "1s",
        )
        val process = started.process
        try {
            val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2)
            // The fork's group, not the launcher's probe group, which comes and goes before any fork starts.
            while (groups().none { !it.startsWith("${Cgroups.PREFIX}probe-") }) {
                assertTrue(
                    process.isAlive && System.nanoTime() < deadline,
                    "no group appeared (whole output: ${started.out}):\n${started.out.readText().takeLast(4000)}",
                )
                Thread.sleep(50)
            }
            // The fork first, with -9: one whose launcher alone dies removes its group itself (ReliabilityIT).
            val family = process.descendants().toList()
            family.forEach { it.destroyForcibly() }
            for (p in family) p.onExit().get(30, TimeUnit.SECONDS)
            process.destroyForcibly()
            assertTrue(process.waitFor(30, TimeUnit.SECONDS))
            assertEquals(1, groups().size, "the killed fork could not remove its group")
        } finally {
            killWithDescendants(process)
        }
        val next = Jar.run(
            "NoopBenchmark.hello$", "-p", "server=netty", "-p", "cpus=1", "-p", "concurrency=2",
            "-f", "1", "-i", "1", "-r", "1s",
            jvmArgs = listOf("-Dserverbench.warmup=off"),
        )
        assertEquals(0, next.exitCode, next.toString())
        assertEquals(emptyList(), groups())
    }

    companion object {
        private val told = AtomicBoolean()
    }
}
