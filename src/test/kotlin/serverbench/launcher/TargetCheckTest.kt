package serverbench.launcher

import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import serverbench.fixture.RemoteTarget
import serverbench.fixture.ServeAdmin
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind
import serverbench.fixture.TargetStatus
import serverbench.testing.planRun
import kotlin.test.assertEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue

/**
 * What the launcher refuses with `-Dserverbench.target` before any fork starts, each in one line; the target is a
 * Netty server and its admin endpoint in this JVM, as `scripts/serve` runs them (127.0.0.1 only).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TargetCheckTest {
    private lateinit var admin: ServeAdmin
    private lateinit var server: ServerFixture

    @BeforeAll
    fun start() {
        admin = ServeAdmin.start(ServerKind.NETTY, "127.0.0.1", 0)
        server = ServerFixture.start(ServerKind.NETTY)
    }

    @AfterAll
    fun stop() {
        server.close()
        admin.close()
    }

    @AfterEach
    fun clear() {
        listOf(RemoteTarget.TARGET, RemoteTarget.ADMIN, RemoteTarget.ALLOW_REMOTE).forEach { System.clearProperty(it) }
    }

    private fun aim(adminPort: Int = admin.address.port) {
        System.setProperty(RemoteTarget.TARGET, "127.0.0.1:${server.port}")
        System.setProperty(RemoteTarget.ADMIN, adminPort.toString())
    }

    private val netty = planRun("NoopBenchmark.hello", "server" to "netty", "cpus" to "unlimited", "cpuset" to "none")

    @Test
    fun `without a target nothing is asked, with the stack it runs nothing is refused`() {
        assertNull(TargetCheck.problem(listOf(netty), profiled = true))
        aim()
        assertNull(TargetCheck.problem(listOf(netty), profiled = false))
    }

    @Test
    fun `a stack the target does not run is refused, naming both`() {
        aim()
        val tomcat = planRun("NoopBenchmark.hello", "server" to "tomcat")
        assertEquals(
            "the target 127.0.0.1:${server.port} runs netty, not -p server=tomcat: add -p server=netty, or start " +
                "the target with scripts/serve --server tomcat",
            TargetCheck.problem(listOf(netty, tomcat), profiled = false),
        )
    }

    @Test
    fun `a budget or a family that needs its server here say how to do it on the target`() {
        aim()
        val budget = planRun("NoopBenchmark.hello", "server" to "netty", "cpus" to "1", "cpuset" to "none")
        assertEquals(
            "-p cpus=1 budgets a server the benchmark starts; with -Dserverbench.target set the budget where the " +
                "target runs: scripts/serve --cpus 1",
            TargetCheck.problem(listOf(budget), profiled = false),
        )
        val knob =
            planRun("BlockingIoBenchmark.direct", "server" to "netty", "tomcatMaxThreads" to "n/a", "poolSize" to "8")
        assertTrue(TargetCheck.problem(listOf(knob), profiled = false)!!.startsWith("-p poolSize=8 sets a property"))
        val jettyKnob = planRun("BlockingIoBenchmark.direct", "server" to "jetty", "jettyMaxThreads" to "16")
        val jettyLine = TargetCheck.problem(listOf(jettyKnob), profiled = false)!!
        assertTrue(jettyLine.startsWith("-p jettyMaxThreads=16 sets a property"), jettyLine)
        val proxy = planRun("ProxyBenchmark.jdkBlocking", "server" to "netty")
        val line = TargetCheck.problem(listOf(proxy), profiled = false)!!
        val expected = "ProxyBenchmark.jdkBlocking (server=netty) cannot drive -Dserverbench.target: "
        assertTrue(line.startsWith(expected), line)
    }

    @Test
    fun `a target without an answering admin endpoint is one line`() {
        aim(adminPort = java.net.ServerSocket(0).use { it.localPort }) // nothing listens there any more
        val line = TargetCheck.problem(listOf(netty), profiled = false)!!
        assertTrue(line.startsWith("no serverbench admin endpoint at http://127.0.0.1:"), line)
        assertEquals(1, line.lines().size)
    }

    @Test
    fun `any HTTP server takes one label for its stack, other only with a target, its scheme agreeing with tls`() {
        // No admin port named, nothing answering at port + 1 as the admin does: the server itself is on port, and
        // port + 1 is a free one or someone else's.
        System.setProperty(RemoteTarget.TARGET, "127.0.0.1:${server.port}")
        val other = planRun("NoopBenchmark.hello", "server" to "other", "tls" to "false")
        assertNull(TargetCheck.problem(listOf(other), profiled = false))
        val tomcat = planRun("NoopBenchmark.hello", "server" to "tomcat")
        assertEquals(
            "the target 127.0.0.1:${server.port} does not say its stack (no scripts/serve admin endpoint at port " +
                "${server.port + 1}): name it with one -p server=tomcat|jetty|netty|other (a label for its " +
                "results; nothing checks it)",
            TargetCheck.problem(listOf(netty, tomcat), profiled = false),
        )
        System.setProperty(RemoteTarget.TARGET, "https://127.0.0.1:${server.port}")
        assertEquals(
            "-Dserverbench.target names an https:// server, and NoopBenchmark.hello (server=other) " +
                "speaks plain HTTP: add -p tls=true",
            TargetCheck.problem(listOf(other), profiled = false),
        )
        System.clearProperty(RemoteTarget.TARGET)
        assertEquals(
            "-p server=other labels a server that runs elsewhere: only with -Dserverbench.target=host:port (in this " +
                "JVM, -p server is tomcat, jetty or netty)",
            TargetCheck.problem(listOf(other), profiled = false),
        )
    }

    @Test
    fun `a target with an admin endpoint is no server of another kind`() {
        aim()
        val other = planRun("NoopBenchmark.hello", "server" to "other")
        assertEquals(
            "the target 127.0.0.1:${server.port} runs netty, not -p server=other: add -p server=netty, or start " +
                "the target with scripts/serve --server other",
            TargetCheck.problem(listOf(other), profiled = false),
        )
    }

    @Test
    fun `a flamegraph of a local target's JVM is taken, its pid the admin endpoint's`() {
        aim()
        // The admin endpoint runs in this JVM: its pid is this live JVM's, which the forks would attach to.
        assertNull(TargetCheck.problem(listOf(netty), profiled = true))
        assertEquals(ProcessHandle.current().pid(), TargetCheck.profiledPid())
    }

    @Test
    fun `a flamegraph of a remote target or of any HTTP server is refused, before any network`() {
        // TEST-NET-1: nothing answers there, and the refusal needs nothing to.
        System.setProperty(RemoteTarget.TARGET, "192.0.2.1:8080")
        System.setProperty(RemoteTarget.ALLOW_REMOTE, "true")
        assertEquals(
            "-prof flame attaches to a local process: profile the target on its host (asprof -e cpu -d 30 " +
                "-f flame.html <pid>, docs/flamegraphs.md)",
            TargetCheck.problem(listOf(netty), profiled = true),
        )
        // No admin port named, nothing at port + 1 answering as the admin does: any HTTP server, no pid known.
        System.clearProperty(RemoteTarget.ALLOW_REMOTE)
        System.setProperty(RemoteTarget.TARGET, "127.0.0.1:${server.port}")
        assertEquals(
            "-prof flame needs the target's pid: start it with scripts/serve (--jar for your own service)",
            TargetCheck.problem(listOf(netty), profiled = true),
        )
    }

    @Test
    fun `a pid that is no live process here, or no JVM, is refused in one line`() {
        val ended = ProcessBuilder("true").start().apply { waitFor() }.pid()
        val gone = TargetCheck.flameProblem(status(ended))!!
        assertTrue(
            gone.startsWith(
                "-prof flame attaches to the target's pid $ended (its admin endpoint's), which " +
                    "is no process on this machine",
            ),
            gone,
        )
        val sleeper = ProcessBuilder("sleep", "60").start()
        try {
            assertEquals(
                "-prof flame attaches to the target's pid ${sleeper.pid()} (its admin endpoint's), which runs " +
                    "sleep, not a JVM: profile the target where it runs (asprof -e cpu -d 30 -f flame.html <pid>, " +
                    "docs/flamegraphs.md)",
                TargetCheck.flameProblem(status(sleeper.pid())),
            )
        } finally {
            sleeper.destroyForcibly().waitFor()
        }
        assertNull(TargetCheck.flameProblem(status(ProcessHandle.current().pid())))
    }

    private fun status(pid: Long) = TargetStatus(
        server = "netty", pid = pid, jdk = "17", availableProcessors = 2, processCpuNanos = 0, allocatedBytes = 0,
        threads = 1, peakThreads = 1, gcCount = 0, gcMillis = 0, heapAfterGcBytes = 0, openFds = 0, inFlightMax = -1,
    )
}
