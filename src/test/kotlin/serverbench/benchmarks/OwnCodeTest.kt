package serverbench.benchmarks

import example.orders.OrderController
import example.orders.OrdersBenchmark
import example.reactiveshop.ReactiveShopBenchmark
import example.shop.ShopBenchmark
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import org.openjdk.jmh.annotations.Benchmark
import org.springframework.boot.WebApplicationType
import org.springframework.boot.web.server.context.WebServerApplicationContext
import serverbench.app.NoopEndpoints
import serverbench.client.Expect
import serverbench.client.LoadFailure
import serverbench.client.Method
import serverbench.client.Request
import serverbench.fixture.Http
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind
import serverbench.fixture.ServerSources
import java.io.File
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertNotEquals
import kotlin.test.assertTrue

/**
 * A user's code under the fixture, on real servers: the example of docs/your-own-benchmark.md (its controller beside
 * the built-in application, declared by [ServerEndpoints] or found by a package scan), and a user's own
 * `@SpringBootApplication` ([ServerApplication]) on the stacks its web type allows, refused on the others in one line.
 */
class OwnCodeTest {
    private fun variants(benchmark: Class<*>) =
        benchmark.methods.filter { it.isAnnotationPresent(Benchmark::class.java) }.map { it.name }.sorted()

    /** The stack that answered, from the server Spring started: TomcatWebServer, JettyWebServer, NettyWebServer. */
    private fun container(server: ServerFixture) =
        (server.context as WebServerApplicationContext).webServer!!.javaClass.simpleName.lowercase()

    @ParameterizedTest
    @EnumSource(ServerKind::class)
    fun `the example's endpoint answers each of its benchmark's requests beside the built-in ones`(kind: ServerKind) {
        val benchmark = OrdersBenchmark()
        ServerFixture.start(kind, sources = OwnCode.sources(OrdersBenchmark::class.java)).use { server ->
            assertTrue(container(server).startsWith(kind.id), container(server))
            val variants = variants(OrdersBenchmark::class.java)
            assertEquals(listOf("putOrder"), variants)
            for (variant in variants) server.verify(benchmark.request(variant))
            server.verify(Request("/noop/hello", NoopEndpoints.HELLO))
        }
    }

    @Test
    fun `a wrong answer from the user's endpoint fails the check`() {
        ServerFixture.start(ServerKind.TOMCAT, sources = OwnCode.sources(OrdersBenchmark::class.java)).use { server ->
            val wrongField = Request(
                "/orders/42",
                "the order as stored",
                method = Method.PUT,
                body = """{"sku":"SKU-42","quantity":2}""".toByteArray(),
                expect = Expect.json("/quantity", Expect.value(3)),
            )
            val failure = assertFailsWith<LoadFailure> { server.verify(wrongField) }
            val line = failure.message.orEmpty()
            assertTrue(line.contains("invalid body; first: PUT /orders/42"), line)
            assertTrue(line.contains("/quantity: expected 3, was 2"), line)
            assertEquals(1, line.lines().size, line)
        }
    }

    @Test
    fun `a package scan finds the user's controller`() {
        val sources = ServerSources(packages = listOf(OrderController::class.java.packageName))
        ServerFixture.start(ServerKind.NETTY, sources = sources).use { server ->
            server.verify(OrdersBenchmark().request("putOrder"))
        }
    }

    @ParameterizedTest
    @EnumSource(ServerKind::class, names = ["TOMCAT", "JETTY"])
    fun `a servlet application of the user's runs with its own configuration instead of the built-in`(
        kind: ServerKind,
    ) {
        ServerFixture.start(kind, sources = OwnCode.sources(ShopBenchmark::class.java)).use { server ->
            assertTrue(container(server).startsWith(kind.id), container(server))
            server.verify(ShopBenchmark().request("greeting"))
            // shop.properties says server.port=18097: traffic stays on the fixture's ephemeral port of 127.0.0.1.
            assertNotEquals(18097, server.port)
            assertEquals(404, Http.get(server.address, "/noop/hello").first, "the built-in application is not there")
        }
    }

    @Test
    fun `a reactive application of the user's runs on netty`() {
        ServerFixture.start(ServerKind.NETTY, sources = OwnCode.sources(ReactiveShopBenchmark::class.java)).use {
            assertTrue(container(it).startsWith("netty"), container(it))
            it.verify(ReactiveShopBenchmark().request("greeting"))
        }
    }

    @Test
    fun `a stack the application's web type does not allow is refused in one line before anything starts`() {
        val servlet = assertFailsWith<IllegalArgumentException> {
            ServerFixture.start(ServerKind.NETTY, sources = OwnCode.sources(ShopBenchmark::class.java))
        }
        assertEquals(
            "ShopApplication runs as a servlet (Spring MVC) application, the default when it declares no web type, " +
                "which -p server=netty cannot run: run it with -p server=tomcat or -p server=jetty, or declare its " +
                "web type (@ServerApplication(webType = \"reactive\") or " +
                "spring.main.web-application-type=reactive in shop.properties)",
            servlet.message,
        )
        val reactive = OwnCode.sources(ReactiveShopBenchmark::class.java).refusal(ServerKind.JETTY)
        assertEquals(
            "ReactiveShopApplication is a reactive (WebFlux) application, which -p server=jetty cannot run: run it " +
                "with -p server=netty, or set its web type (@ServerApplication(webType = ...) or " +
                "spring.main.web-application-type in reactiveshop.properties)",
            reactive,
        )
    }

    @Test
    fun `endpoints declared for one web type are refused on the other stack in one line and run on theirs`() {
        val servlet = ServerSources(endpoints = listOf(OrderController::class.java), webType = "servlet")
        val refused = assertFailsWith<IllegalArgumentException> {
            ServerFixture.start(ServerKind.NETTY, sources = servlet)
        }
        assertEquals(
            "OrderController: endpoints for servlet (Spring MVC) stacks (@ServerEndpoints(webType = \"servlet\")), " +
                "which -p server=netty cannot run: run them with -p server=tomcat or -p server=jetty, or change the " +
                "annotation's webType",
            refused.message,
        )
        ServerFixture.start(ServerKind.JETTY, sources = servlet).use {
            it.verify(OrdersBenchmark().request("putOrder"))
        }
        assertEquals(null, servlet.copy(webType = "").refusal(ServerKind.NETTY), "endpoints without one run anywhere")
        assertEquals(null, servlet.copy(webType = "reactive").refusal(ServerKind.NETTY))
        val bad = assertFailsWith<IllegalArgumentException> { servlet.copy(webType = "mvc").ownWebType() }
        assertEquals("OrderController: web type 'mvc' (webType) must be servlet or reactive", bad.message)
    }

    /** Fails before: only `<config>.properties` was read, so a YAML-configured reactive application read servlet. */
    @Test
    fun `the web type is read from the application's YAML file too, the properties file winning`() {
        val yaml = OwnCode.sources(ReactiveShopBenchmark::class.java).copy(config = "yamlshop")
        assertEquals(WebApplicationType.REACTIVE, yaml.ownWebType())
        assertEquals(WebApplicationType.REACTIVE, yaml.copy(config = "reactiveshop").ownWebType())
        assertEquals(WebApplicationType.SERVLET, yaml.copy(config = "shop").ownWebType())
    }

    @Test
    fun `the annotation's web type wins over the file's, and a bad one is named`() {
        val shop = OwnCode.sources(ShopBenchmark::class.java)
        assertEquals(null, shop.copy(webType = "reactive").refusal(ServerKind.NETTY))
        val bad = assertFailsWith<IllegalArgumentException> { shop.copy(webType = "servelt").ownWebType() }
        assertEquals("ShopApplication: web type 'servelt' (webType) must be servlet or reactive", bad.message)
    }

    @Test
    fun `the docs page shows the example's two files as they are compiled here`() {
        val page = File("docs/your-own-benchmark.md").readText()
        val blocks = Regex("```kotlin\n(.*?)```", RegexOption.DOT_MATCHES_ALL).findAll(page)
            .map { it.groupValues[1].replace("package com.acme.orders", "package example.orders") }.toList()
        for (file in listOf("OrderController.kt", "OrdersBenchmark.kt")) {
            val source = File("src/test/kotlin/example/orders/$file").readText()
            assertTrue(source in blocks, "docs/your-own-benchmark.md does not show $file as it is")
        }
    }

    @Test
    fun `a user's family is told from a built-in one by its annotation`() {
        assertTrue(OwnCode.isOwn(OrdersBenchmark::class.java))
        assertTrue(OwnCode.isOwn(ShopBenchmark::class.java))
        assertTrue(!OwnCode.isOwn(NoopBenchmark::class.java))
        assertEquals(ServerSources.BUILT_IN, OwnCode.sources(NoopBenchmark::class.java))
    }
}
