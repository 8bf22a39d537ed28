package serverbench.hyperfoil

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertTrue

/**
 * scripts/hyperfoil's bad input: one line naming the option or parameter and what is allowed, before anything starts;
 * and the workloads Hyperfoil cannot run the way the harness measures them, refused in one line or exported with a
 * note of the difference, never silently different.
 */
class HyperfoilOptionsTest {
    private fun problem(vararg args: String): String = assertFailsWith<IllegalArgumentException> {
        HyperfoilCommand.plan(HyperfoilOptions.parse(args.toList()))
    }.message!!

    @Test
    fun `bad options are one line naming the option and what it allows`() {
        assertEquals("the benchmark regex is missing", problem("-p", "server=netty"))
        assertEquals("-i must be an integer from 1 to 1000, was '0'", problem("Noop", "-i", "0"))
        assertEquals("-r must be whole seconds from 1 to 3600 (e.g. 5s), was '500ms'", problem("Noop", "-r", "500ms"))
        assertEquals(
            "--warmup must be whole seconds from 1 to 3600 (e.g. 5s), was 'x'",
            problem("Noop", "--warmup", "x"),
        )
        assertTrue(
            problem("Noop", "--server-host", "10.1.2.3:80").endsWith("add --allow-remote to send load to another host"),
        )
        assertTrue(problem("Noop", "--server-host", "127.0.0.1").startsWith("--server-host must be host:port"))
        assertTrue(problem("Noop", "--agents", "a=h1", "--export-only").startsWith("--agents: the agents run on other"))
        assertTrue(problem("Noop", "--agents", "a=h1").startsWith("--agents: the in-VM run is one agent"))
        assertTrue(problem("Noop", "--agents", "a b", "--export-only").startsWith("--agents must be name=[user@]"))
        assertTrue(problem("Noop", "-f", "3").contains("f"), "a JMH option that means nothing here")
    }

    @Test
    fun `the launcher's checks hold, and its selection`() {
        assertEquals(
            "-p server=undertow: server must be tomcat, jetty, netty or other",
            problem("NoopBenchmark", "-p", "server=undertow"),
        )
        assertTrue(problem("NoopBenchmark", "-p", "limt=1").startsWith("-p limt=1: no selected benchmark has"))
        assertTrue(problem("Nope.hello").startsWith("no benchmark matches 'Nope.hello'"))
        val planned = HyperfoilCommand.plan(HyperfoilOptions.parse(listOf("Noop", "-p", "concurrency=8,16")))
        assertEquals(4, planned.size, "2 servers x 2 concurrencies, as the launcher plans them")
        assertTrue(planned.none { it.run.className.contains("SelfCheck") })
    }

    @Test
    fun `what Hyperfoil cannot run the harness's way is refused in one line`() {
        assertTrue(problem("DatabaseBenchmark.jdbc$", "-p", "server=netty").contains("not on Hyperfoil"))
        assertTrue(problem("SelfCheckBenchmark.hang").contains("not on Hyperfoil"))
        assertTrue(
            problem(
                "JsonBenchmark.direct$",
                "-p",
                "server=netty",
            ).endsWith("not on Hyperfoil: its requests carry a body"),
        )
        val budget = problem("Noop", "-p", "cpus=1")
        assertTrue(budget.startsWith("-p cpus=1 budgets a server the benchmark starts; for Hyperfoil"), budget)
        assertTrue(problem("Noop", "-p", "tls=true").startsWith("-p tls=true: not on Hyperfoil"))
        assertTrue(problem("Noop", "-p", "protocol=h2").startsWith("-p protocol=h2: not on Hyperfoil"))
        // A .http workload and a server of another kind are the harness's alone (issue 40: refused in one line).
        val file = javaClass.getResource("/builtin.http")!!.path
        val http = problem("HttpFileBenchmark", "-p", "workload=$file", "-p", "server=netty")
        assertTrue(http.startsWith("-p workload: a .http workload is not exported to Hyperfoil yet"), http)
        val other = problem("Noop", "-p", "server=other")
        assertTrue(other.startsWith("-p server=other"), other)
        // A latency objective is judged by the harness, never by Hyperfoil 0.25.2's percentile SLA.
        val objective = problem("Noop", "-p", "objective=p99:100ms")
        assertTrue(objective.startsWith("-p objective=p99:100ms: not on Hyperfoil"), objective)
        assertTrue("p0.99" in objective, objective)
        assertTrue(
            problem("BlockingIoBenchmark.direct$", "-p", "server=tomcat", "-p", "tomcatMaxThreads=4")
                .startsWith("-p tomcatMaxThreads=4 sets a property of a server"),
        )
    }

    @Test
    fun `what Hyperfoil measures differently is said with the export`() {
        fun plan(vararg args: String) = HyperfoilCommand.plan(HyperfoilOptions.parse(args.toList()))
        val proxy = plan("ProxyBenchmark.webClient$", "-p", "server=netty", "-p", "delayMs=10").single()
        assertTrue(proxy.notes.single().contains("downstream stub"), proxy.notes.toString())
        val open = plan("NoopBenchmark", "-p", "server=netty", "-p", "rate=1000").single()
        assertTrue(open.notes.single().startsWith("open loop: Hyperfoil 0.25.2"), open.notes.toString())
        assertTrue(plan("NoopBenchmark", "-p", "server=netty").single().notes.isEmpty())
        val tomcat = plan("NoopBenchmark", "-p", "server=tomcat").single()
        assertTrue(tomcat.notes.single().contains("Connection: close"), tomcat.notes.toString())
        val status500 = plan("SelfCheckBenchmark.status500", "-p", "server=netty").single()
        assertEquals("/fault/status?code=500", status500.request.path)
    }
}
