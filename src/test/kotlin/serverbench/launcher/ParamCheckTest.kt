package serverbench.launcher

import org.junit.jupiter.api.Test
import serverbench.params.CpuParams
import serverbench.params.Objective
import serverbench.testing.planRun
import kotlin.test.assertEquals
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

class ParamCheckTest {
    private val declared =
        setOf(
            "server",
            "concurrency",
            "limit",
            "delayMs",
            "tomcatMaxThreads",
            "jettyMaxThreads",
            "virtualThreads",
            "cpus",
            "cpuset",
            "tls",
            "sslProvider",
            "requestsPerConnection",
        )
    private val run = planRun("NoopBenchmark.hello", "server" to "netty", "concurrency" to "64")

    private fun check(vararg p: Pair<String, String>) = ParamCheck.check(
        p.associate {
            it.first to it.second.split(',')
        },
        listOf(run),
        declared,
    )

    @Test
    fun `good values pass`() {
        assertNull(
            check(
                "server" to "netty,tomcat,jetty",
                "limit" to "1,300000",
                "tomcatMaxThreads" to "default,1,800",
                "jettyMaxThreads" to "default,1,800",
                "virtualThreads" to "true,false",
                "delayMs" to "100",
                "tls" to "false,true",
                "sslProvider" to "default,jdk,openssl",
                "requestsPerConnection" to "unlimited,1,100",
            ),
        )
    }

    @Test
    fun `each bad value is named with what is allowed`() {
        assertEquals(
            "-p server=undertow: server must be tomcat, jetty, netty or other",
            check("server" to "netty,undertow"),
        )
        assertEquals("-p concurrency=0: concurrency must be an integer from 1 to 100000", check("concurrency" to "0"))
        assertEquals("-p limit=-5: limit must be an integer from 1 to 10000000", check("limit" to "-5"))
        assertEquals("-p limit=ten: limit must be an integer from 1 to 10000000", check("limit" to "ten"))
        assertEquals(
            "-p tomcatMaxThreads=0: tomcatMaxThreads must be 'default' or an integer from 1 to 100000",
            check("tomcatMaxThreads" to "0"),
        )
        assertEquals(
            "-p jettyMaxThreads=0: jettyMaxThreads must be 'default' or an integer from 1 to 100000",
            check("jettyMaxThreads" to "0"),
        )
        assertEquals("-p virtualThreads=yes: virtualThreads must be true or false", check("virtualThreads" to "yes"))
        assertEquals("-p limit=: an empty value", check("limit" to ""))
        assertEquals("-p tls=maybe: tls must be true or false", check("tls" to "maybe"))
        assertEquals(
            "-p requestsPerConnection=0: requestsPerConnection must be 'unlimited' or an integer from 1 to 1000000",
            check("requestsPerConnection" to "1,0"),
        )
        assertEquals(
            "-p sslProvider=foo: sslProvider must be 'default', jdk or openssl",
            check("sslProvider" to "jdk,foo"),
        )
        val cores = CpuParams.machineCores()
        assertEquals(
            "-p cpus=0: cpus must be 'unlimited' or a number of CPUs from 0.01 to $cores (this machine's cores), " +
                "e.g. 0.5, 1, 1.5",
            check("cpus" to "0"),
        )
        assertEquals(
            "-p cpuset=$cores: cpuset must be 'none' or cores from 0 to ${cores - 1} (e.g. 1, 0-1, 0,2) that leave " +
                "at least one core for the load client",
            check("cpuset" to "$cores"),
        )
    }

    @Test
    fun `bodyBytes outside what WebFlux's JSON decoder buffers by default is refused`() {
        fun body(v: String) = ParamCheck.check(mapOf("bodyBytes" to v.split(',')), listOf(run), setOf("bodyBytes"))
        assertNull(body("512,1024,16384,262144"))
        val allowed = "bodyBytes must be an integer from 512 to 262144"
        assertEquals("-p bodyBytes=511: $allowed", body("1024,511"))
        assertEquals("-p bodyBytes=262145: $allowed", body("262145"))
        assertEquals("-p bodyBytes=1k: $allowed", body("1k"))
    }

    @Test
    fun `a client quota outside 0_01 to the machine's cores, or beside a server elsewhere, is refused in one line`() {
        val noop = planRun("NoopBenchmark.hello", "server" to "netty")
        fun check() = ParamCheck.check(emptyMap(), listOf(noop), setOf("server"))
        val cores = CpuParams.machineCores()
        for (bad in listOf("0", "lots", "${cores + 1}")) {
            System.setProperty("serverbench.clientCpus", bad)
            try {
                assertEquals(
                    "-Dserverbench.clientCpus=$bad: it must be a number of CPUs from 0.01 to $cores (this machine's " +
                        "cores), e.g. 0.25",
                    check(),
                )
            } finally {
                System.clearProperty("serverbench.clientCpus")
            }
        }
        System.setProperty("serverbench.clientCpus", "0.5")
        System.setProperty("serverbench.target", "127.0.0.1:8080")
        try {
            val line = assertNotNull(check())
            assertTrue(line.startsWith("-Dserverbench.clientCpus: the load client's quota is made beside"), line)
        } finally {
            System.clearProperty("serverbench.clientCpus")
            System.clearProperty("serverbench.target")
        }
    }

    @Test
    fun `a capacity search refuses a rate of its own and a bad search property, before anything starts`() {
        val search = planRun("NoopBenchmark.hello", "server" to "netty", "objective" to "p99:100ms", "rate" to "500")
        val declared = setOf("server", "objective", "rate")
        fun check(run: Plan.Run) = ParamCheck.check(emptyMap(), listOf(run), declared)
        assertEquals(
            "-p rate=500: a capacity search (-p objective=p99:100ms) sets the rate itself; leave -p rate at 0",
            check(search),
        )
        assertNull(check(search.with("rate", "0")))
        System.setProperty("serverbench.capacity.maxSteps", "2")
        try {
            assertEquals(
                "-Dserverbench.capacity.maxSteps must be an integer >= 3, was '2'",
                check(search.with("rate", "0")),
            )
        } finally {
            System.clearProperty("serverbench.capacity.maxSteps")
        }
        assertEquals(
            "-p objective=p99<100ms: objective must be ${Objective.ALLOWED}",
            ParamCheck.check(mapOf("objective" to listOf("p99<100ms")), listOf(run), declared + "objective"),
        )
    }

    @Test
    fun `a bad tlsResumption property is named before anything starts`() {
        System.setProperty("serverbench.tlsResumption", "maybe")
        try {
            assertEquals("serverbench.tlsResumption must be true or false, was 'maybe'", check("tls" to "true"))
        } finally {
            System.clearProperty("serverbench.tlsResumption")
        }
    }

    @Test
    fun `a parameter no selected benchmark has is an error, not silently ignored`() {
        assertEquals(
            "-p limt=1000: no selected benchmark has a parameter 'limt'; theirs are concurrency, cpus, cpuset, " +
                "delayMs, jettyMaxThreads, limit, requestsPerConnection, " +
                "server, sslProvider, tls, tomcatMaxThreads, virtualThreads (list them with -lp <pattern>)",
            check("limt" to "1000"),
        )
    }

    @Test
    fun `protocol and streams are checked, and h2 streams must divide the concurrency`() {
        val h2 = setOf("server", "concurrency", "protocol", "streams", "requestsPerConnection")
        fun h2(concurrency: String, streams: String, vararg p: Pair<String, String>): String? {
            val given = mapOf("protocol" to listOf("h2"), "streams" to listOf(streams)) + p.associate {
                it.first to it.second.split(',')
            }
            // The values of p replace those above, in their place.
            val planned = planRun(
                "NoopBenchmark.hello",
                "server" to "tomcat",
                "concurrency" to concurrency,
                "protocol" to "h2",
                "streams" to streams,
                *p.map { it.first to it.second.substringAfterLast(',') }.toTypedArray(),
            )
            return ParamCheck.check(given, listOf(planned), h2)
        }
        assertNull(h2("64", "8"))
        assertEquals("-p protocol=h3: protocol must be h1 or h2", h2("64", "8", "protocol" to "h1,h3"))
        assertEquals("-p streams=0: streams must be an integer from 1 to 1000", h2("64", "0"))
        assertEquals(
            "-p concurrency=64 -p streams=6: with protocol=h2, concurrency (requests in flight) must be a multiple " +
                "of streams (per connection), e.g. concurrency=60",
            h2("64", "6"),
        )
        assertEquals(
            "-p requestsPerConnection=10: HTTP/1.1 only (protocol=h1): an HTTP/2 connection's streams are not closed " +
                "one by one; leave it at unlimited with protocol=h2",
            h2("64", "8", "requestsPerConnection" to "10"),
        )
    }

    @Test
    fun `a wait the client would time out on is refused`() {
        assertEquals(
            "-p delayMs=30000: every request would time out (client timeout 30000 ms); use a shorter wait or " +
                "raise -Dserverbench.timeoutMs",
            check("delayMs" to "30000"),
        )
    }

    @Test
    fun `-p options are read as typed`() {
        assertEquals(
            mapOf("limit" to listOf("1", "2"), "server" to listOf("netty")),
            ParamCheck.given(arrayOf("Cpu", "-p", "limit=1,2", "-pserver=netty", "-f", "1")),
        )
    }
}
