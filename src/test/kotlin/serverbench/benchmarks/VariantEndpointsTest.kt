package serverbench.benchmarks

import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.runner.BenchmarkList
import org.openjdk.jmh.runner.format.OutputFormatFactory
import org.openjdk.jmh.runner.options.VerboseMode
import org.springframework.boot.WebApplicationType
import serverbench.app.DatabaseClients
import serverbench.app.DatabaseSchema
import serverbench.app.Downstream
import serverbench.fixture.BundledPostgres
import serverbench.fixture.DownstreamStub
import serverbench.fixture.PostgresServer
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind
import java.io.OutputStream
import java.io.PrintStream
import java.sql.DriverManager
import kotlin.test.Test
import kotlin.test.assertEquals

/**
 * A `@Benchmark` method's name is its variant: for every method of every built-in family, both stacks answer the
 * request the family builds from that name, validated as the benchmark validates it. The list of variants is the
 * methods; no test or script repeats it. A user's families are not listed here ([OwnCode.isOwn]).
 */
class VariantEndpointsTest {
    /** Each family with short waits and light work, so every variant answers within a test. */
    private val families: List<HttpBenchmark> = listOf(
        NoopBenchmark(),
        DelayBenchmark().apply { delayMs = 20 },
        CpuBenchmark().apply { limit = 1000 },
        CpuCooperativeBenchmark().apply {
            limit = 1000
            batchSize = 100
        },
        BlockingIoBenchmark().apply { delayMs = 5 },
        CompletableFutureBenchmark().apply { workMs = 5 },
        ProxyBenchmark().apply { delayMs = 5 },
        JsonBenchmark().apply { bodyBytes = 16384 },
        HttpFileBenchmark().apply { workload = javaClass.getResource("/builtin.http")!!.path },
    ) + DatabaseClients.Query.ids.map { q -> DatabaseBenchmark().apply { query = q } }

    /** The family's variants that run on [kind] on this JDK, as the launcher plans them. */
    private fun variants(family: HttpBenchmark, kind: ServerKind): List<String> = family.javaClass.methods
        .filter { it.isAnnotationPresent(Benchmark::class.java) }
        .filter { m ->
            m.getAnnotation(RequiresJdk::class.java)?.let { Runtime.version().feature() >= it.version }
                ?: true
        }
        .filter { m -> !m.isAnnotationPresent(ReactiveOnly::class.java) || kind.webType == WebApplicationType.REACTIVE }
        .map { it.name }.sorted()

    @Test
    fun `every family in the jar's benchmark list is checked here`() {
        val quiet = OutputFormatFactory.createFormatInstance(
            PrintStream(OutputStream.nullOutputStream()),
            VerboseMode.SILENT,
        )
        // A user's family (one carrying @ServerEndpoints or @ServerApplication) is checked by its own test.
        val listed = BenchmarkList.defaultList().getAll(quiet, emptyList()).map { it.userClassQName }
            .filterNot { OwnCode.isOwn(Class.forName(it, false, javaClass.classLoader)) }.toSortedSet()
        val selfCheck = SelfCheckBenchmark::class.java.name
        assertEquals(listed - selfCheck, families.map { it.javaClass.name }.toSortedSet())
    }

    @ParameterizedTest
    @EnumSource(ServerKind::class)
    fun `every stack answers every variant's request`(kind: ServerKind) {
        BundledPostgres.assume()
        DownstreamStub.start().use { stub ->
            PostgresServer.start().use { pg ->
                DriverManager.getConnection(pg.jdbcUrl, PostgresServer.USER, "").use { DatabaseSchema.create(it) }
                val properties = mapOf(Downstream.URL_PROPERTY to stub.url, DatabaseClients.URL_PROPERTY to pg.jdbcUrl)
                ServerFixture.start(kind, properties).use { server -> verifyAll(server, stub) }
            }
        }
    }

    private fun verifyAll(server: ServerFixture, stub: DownstreamStub) {
        for (family in families) {
            val hits = stub.hitCount
            for (variant in variants(family, server.kind)) {
                family.requests(variant).entries.forEach { server.verify(it.request) }
            }
            val proxied = if (family is ProxyBenchmark) variants(family, server.kind).size else 0
            assertEquals(hits + proxied, stub.hitCount, "each proxied request reaches the stub exactly once")
        }
    }
}
