package serverbench.launcher

import example.orders.OrderController
import example.orders.OrdersBenchmark
import example.reactiveshop.ReactiveShopBenchmark
import example.shop.ShopBenchmark
import org.junit.jupiter.api.Test
import org.openjdk.jmh.annotations.Mode
import serverbench.benchmarks.ServerEndpoints
import kotlin.test.assertEquals

/** The launcher's host-side check of the stack of a user's application or endpoints, before any fork starts. */
class OwnApplicationCheckTest {
    private fun run(benchmark: Class<*>, method: String, server: String) =
        Plan.Run("${benchmark.name}.$method", Mode.Throughput, linkedMapOf("server" to server), 60)

    @Test
    fun `a stack the user named that the application's web type does not allow is refused in one line`() {
        val runs = listOf("tomcat", "netty").map { run(ShopBenchmark::class.java, "greeting", it) }
        assertEquals(
            "-p server=netty: ShopApplication runs as a servlet (Spring MVC) application, the default when it " +
                "declares no web type, which -p server=netty cannot run: run it with -p server=tomcat or " +
                "-p server=jetty, or declare its web type (@ServerApplication(webType = \"reactive\") or " +
                "spring.main.web-application-type=reactive in shop.properties)",
            ParamCheck.check(mapOf("server" to listOf("tomcat", "netty")), runs, setOf("server")),
        )
        val reactive = listOf(run(ReactiveShopBenchmark::class.java, "greeting", "jetty"))
        assertEquals(
            "-p server=jetty: ReactiveShopApplication is a reactive (WebFlux) application, which -p server=jetty " +
                "cannot run: run it with -p server=netty, or set its web type (@ServerApplication(webType = ...) or " +
                "spring.main.web-application-type in reactiveshop.properties)",
            OwnApplicationCheck.problem(mapOf("server" to listOf("jetty")), reactive),
        )
    }

    @Test
    fun `the allowed stacks and a user's endpoints beside the built-in application pass`() {
        val runs = listOf(run(ShopBenchmark::class.java, "greeting", "jetty")) +
            listOf("tomcat", "jetty", "netty").map { run(OrdersBenchmark::class.java, "getOrder", it) }
        assertEquals(null, OwnApplicationCheck.problem(mapOf("server" to listOf("tomcat", "jetty", "netty")), runs))
    }

    @Test
    fun `a stack from the default is skipped with a notice`() {
        val planned = listOf("netty", "tomcat").map { run(ShopBenchmark::class.java, "greeting", it) }
        assertEquals(null, OwnApplicationCheck.problem(emptyMap(), planned))
        val out = Applicability.apply(planned, jdk = 17)
        assertEquals(listOf("tomcat"), out.runs.map { it.params["server"] })
        assertEquals(1, out.notices.size, out.notices.toString())
        assertEquals(
            "serverbench: skipped 1 run of example.shop.ShopBenchmark.greeting on netty: ShopApplication runs as a " +
                "servlet (Spring MVC) application, the default when it declares no web type",
            out.notices.single().substringBefore(", which"),
        )
    }

    @Test
    fun `endpoints declared for the servlet stacks are refused on netty when named and skipped from the default`() {
        val runs = listOf("netty", "tomcat").map { run(ServletEndpointsBenchmark::class.java, "put", it) }
        assertEquals(
            "-p server=netty: OrderController: endpoints for servlet (Spring MVC) stacks (@ServerEndpoints(webType = " +
                "\"servlet\")), which -p server=netty cannot run: run them with -p server=tomcat or -p server=jetty, " +
                "or change the annotation's webType",
            OwnApplicationCheck.problem(mapOf("server" to listOf("netty", "tomcat")), runs),
        )
        assertEquals(null, OwnApplicationCheck.problem(emptyMap(), runs))
        val out = Applicability.apply(runs, jdk = 17)
        assertEquals(listOf("tomcat"), out.runs.map { it.params["server"] })
        assertEquals(
            "serverbench: skipped 1 run of serverbench.launcher.ServletEndpointsBenchmark.put on netty: " +
                "OrderController: endpoints for servlet (Spring MVC) stacks",
            out.notices.single().substringBefore(" (@ServerEndpoints"),
        )
    }
}

/** Endpoints written for Spring MVC only, as a blocking JDBC controller would declare them. */
@ServerEndpoints(OrderController::class, webType = "servlet")
internal class ServletEndpointsBenchmark
