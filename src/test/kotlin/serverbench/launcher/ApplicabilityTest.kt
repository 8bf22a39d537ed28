package serverbench.launcher

import org.junit.jupiter.api.Test
import serverbench.testing.planRun
import kotlin.test.assertEquals
import kotlin.test.assertTrue

class ApplicabilityTest {
    private fun run(method: String, vararg params: Pair<String, String>) =
        planRun("BlockingIoBenchmark.$method", *params)

    @Test
    fun `a knob of the other stack becomes n-a and its runs are not repeated`() {
        val planned = listOf("1", "200").flatMap { t ->
            listOf("netty", "tomcat").map { s ->
                run(
                    "direct",
                    "server" to s,
                    "tomcatMaxThreads" to t,
                    "nettyIoWorkers" to "default",
                )
            }
        }
        val out = Applicability.apply(planned, jdk = 17)
        assertEquals(
            listOf("netty n/a default", "tomcat 1 n/a", "tomcat 200 n/a"),
            out.runs.map {
                "${it.params["server"]} ${it.params["tomcatMaxThreads"]} ${it.params["nettyIoWorkers"]}"
            }.sorted(),
        )
        assertEquals(
            listOf("serverbench: tomcatMaxThreads applies to tomcat only; netty runs show tomcatMaxThreads=n/a"),
            out.notices,
        )
    }

    @Test
    fun `streams applies to protocol=h2 only, so HTTP 1_1 runs are not repeated per streams value`() {
        val planned = listOf("h1", "h2").flatMap { p ->
            listOf("1", "8").map { n -> run("direct", "server" to "netty", "protocol" to p, "streams" to n) }
        }
        val out = Applicability.apply(planned, jdk = 17)
        assertEquals(
            listOf("h1 n/a", "h2 1", "h2 8"),
            out.runs.map { "${it.params["protocol"]} ${it.params["streams"]}" }.sorted(),
        )
        assertEquals(listOf("serverbench: streams applies to protocol=h2 runs only"), out.notices)
    }

    @Test
    fun `each servlet container's thread knob is n-a on the other two stacks`() {
        val planned = listOf("netty", "tomcat", "jetty").flatMap { s ->
            listOf("1", "200").map { t ->
                run("direct", "server" to s, "tomcatMaxThreads" to t, "jettyMaxThreads" to t)
            }
        }
        val out = Applicability.apply(planned, jdk = 17)
        assertEquals(
            listOf("jetty n/a 1", "jetty n/a 200", "netty n/a n/a", "tomcat 1 n/a", "tomcat 200 n/a"),
            out.runs.map {
                "${it.params["server"]} ${it.params["tomcatMaxThreads"]} ${it.params["jettyMaxThreads"]}"
            }.sorted(),
        )
        assertEquals(
            setOf(
                "serverbench: tomcatMaxThreads applies to tomcat only; netty runs show tomcatMaxThreads=n/a",
                "serverbench: jettyMaxThreads applies to jetty only; netty runs show jettyMaxThreads=n/a",
                "serverbench: jettyMaxThreads applies to jetty only; tomcat runs show jettyMaxThreads=n/a",
                "serverbench: tomcatMaxThreads applies to tomcat only; jetty runs show tomcatMaxThreads=n/a",
            ),
            out.notices.toSet(),
        )
    }

    @Test
    fun `virtual-thread runs are skipped with one line before JDK 21 and kept after`() {
        val planned = listOf(
            run("cfVirtual", "server" to "netty"),
            run("cfVirtual", "server" to "tomcat"),
            run("direct", "server" to "tomcat", "virtualThreads" to "true"),
            run("direct", "server" to "tomcat", "virtualThreads" to "false"),
        )
        val old = Applicability.apply(planned, jdk = 17)
        assertEquals(listOf("direct false"), old.runs.map { "${it.method} ${it.params["virtualThreads"]}" })
        assertEquals(2, old.notices.size, old.notices.toString())
        assertTrue(
            old.notices[0].startsWith(
                "serverbench: skipped 2 runs of BlockingIoBenchmark.cfVirtual: virtual threads, " +
                    "which needs a newer JDK than this benchmark JVM's 17",
            ),
            old.notices[0],
        )
        assertTrue(old.notices[1].contains("virtualThreads=true"), old.notices[1])
        assertEquals(4, Applicability.apply(planned, jdk = 25).runs.size)
    }

    @Test
    fun `a reactive-only variant is skipped on MVC stacks with one line, and runs on reactive ones`() {
        fun json(server: String) = planRun("JsonBenchmark.mono", "server" to server)
        val out = Applicability.apply(listOf(json("netty"), json("tomcat")), jdk = 17)
        assertEquals(listOf("netty"), out.runs.map { it.params["server"] })
        assertEquals(
            listOf(
                "serverbench: skipped 1 run of JsonBenchmark.mono on tomcat: a Mono<Order> request body is " +
                    "WebFlux's; Spring MVC has no reactive body parameter",
            ),
            out.notices,
        )
    }

    @Test
    fun `sslProvider applies to netty with tls only, saying so in one line`() {
        val planned = listOf("netty", "tomcat").flatMap { s ->
            listOf("false", "true").map { t -> run("direct", "server" to s, "tls" to t, "sslProvider" to "openssl") }
        }
        val out = Applicability.apply(planned, jdk = 17)
        assertEquals(
            listOf("netty false n/a", "netty true openssl", "tomcat false n/a", "tomcat true n/a"),
            out.runs.map { "${it.params["server"]} ${it.params["tls"]} ${it.params["sslProvider"]}" }.sorted(),
        )
        assertEquals(
            listOf(
                "serverbench: sslProvider applies to tls=true runs only",
                "serverbench: sslProvider applies to netty only; tomcat runs show sslProvider=n/a",
            ),
            out.notices,
        )
    }
}
