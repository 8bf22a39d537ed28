package serverbench.benchmarks

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import serverbench.app.summarize
import serverbench.client.ClientSettings
import serverbench.client.FailureKind
import serverbench.client.LoadClient
import serverbench.client.LoadFailure
import serverbench.client.Request
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind
import java.time.Duration
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * The JSON family's request and its validation: the order's size, and real servers of every stack answering it, a
 * wrong answer (well-formed JSON one cent off, or another content type) failing as an invalid body, and the bytes
 * per request the client reports.
 */
class JsonFamilyTest {
    private val strict = ClientSettings(timeout = Duration.ofSeconds(5))

    @Test
    fun `the order fills bodyBytes with line items and stays within it`() {
        for (bytes in listOf(OrderJson.MIN_BYTES, 1024, 16384, OrderJson.MAX_BYTES)) {
            val order = OrderJson.order(bytes)
            val size = OrderJson.encode(order).size
            assertTrue(size <= bytes, "$bytes: $size bytes")
            // One more line item (~110 bytes) would not have fitted.
            assertTrue(size > bytes - 120, "$bytes: only $size bytes")
            assertEquals(order.items.map { it.sku }.distinct().size, order.items.size)
        }
        assertTrue(OrderJson.order(OrderJson.MIN_BYTES).items.size in 1..3, "a small order still has its items")
        assertThrows<IllegalArgumentException> { OrderJson.order(OrderJson.MIN_BYTES - 1) }
        assertThrows<IllegalArgumentException> { OrderJson.order(OrderJson.MAX_BYTES + 1) }
    }

    @Test
    fun `the expected answer is the summary of the order sent, written by hand`() {
        val request = OrderJson.request("/json/direct", 1024)
        val order = OrderJson.order(1024)
        assertTrue(request.body!!.contentEquals(OrderJson.encode(order)))
        val summary = summarize(order)
        assertEquals(summary.lines.sumOf { it.totalCents }, summary.totalCents)
        assertTrue(request.expectedBody.startsWith("{\"orderId\":\"ord-2026-000123\",\"customerId\":\"cus-4711\""))
        assertTrue(request.expectedBody.contains("\"totalCents\":${summary.totalCents},\"lines\":[{\"sku\":"))
        assertEquals("application/json", request.expectedContentType)
    }

    private fun client(server: ServerFixture, request: Request, connections: Int = 2) =
        LoadClient(server.address, connections, request, strict)

    @ParameterizedTest
    @EnumSource(ServerKind::class)
    fun `each stack answers the exact bytes, and the client reports the bytes of each request and answer`(
        kind: ServerKind,
    ) {
        ServerFixture.start(kind).use { server ->
            val request = OrderJson.request("/json/direct", 16384)
            client(server, request).use { c ->
                c.start()
                c.beginIteration()
                repeat(200) { c.next() }
                val report = c.endIteration()
                assertEquals(0, report.failures.total)
                val wire = request.wireBytes(server.address.hostString, server.address.port).size.toLong()
                assertEquals(wire, report.requestBytes)
                assertTrue(wire > 16384 - 120 && wire < 16384 + 200, "request $wire bytes")
                val perResponse = report.responseBytes.toDouble() / report.successes
                val body = request.expected.size
                // The answer's body and a head of some 60 to 300 bytes.
                assertTrue(perResponse > body + 60 && perResponse < body + 300, "$perResponse bytes for a $body one")
            }
            // A wrong answer: one cent off in well-formed JSON of the right shape.
            client(server, OrderJson.request("/fault/jsonWrongTotal", 1024)).use { c ->
                val e = assertThrows<LoadFailure> {
                    c.start()
                    c.next()
                }
                assertTrue(e.message!!.contains(" invalid body; first: POST /fault/jsonWrongTotal ("), e.message)
                assertTrue(e.message!!.contains("-byte body) on "), e.message)
                // The sample shows the body's start, identical here: the message also says where it differs.
                val difference = e.message!!.substringAfter("; first difference at byte ", "")
                assertTrue(
                    Regex("^\\d+: \".*\"totalCents\":\\d+.*\", expected ").containsMatchIn(difference),
                    e.message,
                )
                assertEquals(c.trialFailures.total, c.trialFailures[FailureKind.INVALID_BODY])
            }
            // The right bytes under another content type are no JSON answer either.
            val plain = Request("/noop/hello", serverbench.app.NoopEndpoints.HELLO, expectedContentType = Request.JSON)
            client(server, plain).use { c ->
                val e = assertThrows<LoadFailure> {
                    c.start()
                    c.next()
                }
                assertTrue(e.message!!.contains("invalid body"), e.message)
                assertTrue(e.message!!.contains("Content-Type \"text/plain"), e.message)
                assertTrue(e.message!!.contains("expected application/json"), e.message)
            }
        }
    }

    @Test
    fun `a run of mono on an MVC stack fails in one line saying why`() {
        val benchmark = JsonBenchmark().apply { server = "tomcat" }
        val variant = HttpBenchmark::class.java.getDeclaredField("variant").apply { isAccessible = true }
        variant.set(benchmark, "mono")
        val serverProperties = JsonBenchmark::class.java.getDeclaredMethod("serverProperties").apply {
            isAccessible =
                true
        }
        val e = assertThrows<java.lang.reflect.InvocationTargetException> { serverProperties.invoke(benchmark) }
        assertEquals(
            "JsonBenchmark.mono runs on reactive stacks only, not tomcat: ${JsonBenchmark.MONO_WHY}",
            e.targetException.message,
        )
    }
}
