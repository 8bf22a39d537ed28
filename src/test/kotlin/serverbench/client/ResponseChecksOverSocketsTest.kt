package serverbench.client

import io.netty.bootstrap.ServerBootstrap
import io.netty.channel.Channel
import io.netty.channel.ChannelInitializer
import io.netty.channel.MultiThreadIoEventLoopGroup
import io.netty.channel.nio.NioIoHandler
import io.netty.channel.socket.nio.NioServerSocketChannel
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import serverbench.benchmarks.H2Params
import serverbench.benchmarks.OrderJson
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.Socket
import java.time.Duration
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * Declared JSON checks over real loopback sockets, on HTTP/1.1, on h2c and over TLS (HTTP/1.1 and h2): answers with a
 * generated id pass, and a field that fails counts as an invalid body whose first line says which field and why.
 */
class ResponseChecksOverSocketsTest {
    private val group = MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory())

    @AfterEach
    fun stop() {
        group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync()
    }

    /** An order as an API answers it: a new id per response, and a state that is wrong from response [badFrom] on. */
    private fun answer(n: Int, badFrom: Int) =
        """{"id":${1000 + n},"state":"${if (n >= badFrom) "LOST" else "NEW"}","createdAt":"2026-11-27T22:${n % 60}Z"}"""

    private val expect = Expect.status(200, 201).contentType(Request.JSON)
        .json("/id", Expect.integer())
        .json("/state", Expect.value("NEW"))
        .json("/createdAt", Expect.matches("\\d{4}-\\d{2}-\\d{2}T.*"))
    private val request = Request("/orders/new", "an order with a generated id", expect = expect)

    private val strict = ClientSettings(maxErrors = 0, timeout = Duration.ofSeconds(10))

    /** [n] requests over [connections] pass, none fails. */
    private fun passes(address: InetSocketAddress, connections: Int, n: Int, s: ClientSettings, r: Request = request) =
        LoadClient(address, connections, r, s).use { c ->
            c.start()
            c.beginIteration()
            repeat(n) { c.next() }
            val report = c.endIteration()
            assertEquals(0, report.failures.total, "${report.failures.summary()}: ${report.failures.first}")
            assertTrue(report.successes >= n, "${report.successes} successes")
        }

    /**
     * On one connection (one stream), the first [good] answers pass and the next fails the benchmark (no failure
     * tolerated) as an invalid body, whose line contains [line]. Returns that line.
     */
    private fun failsAfter(
        address: InetSocketAddress,
        good: Int,
        s: ClientSettings,
        line: String,
        r: Request = request,
    ) = LoadClient(address, 1, r, s).use { c ->
        c.start()
        c.beginIteration()
        val e = assertThrows<LoadFailure> { repeat(good + 1) { c.next() } }
        assertTrue(e.message!!.contains(" invalid body; first: "), e.message)
        assertTrue(e.message!!.contains(line), e.message)
        // The next request may have failed too before the client looked: all of them invalid bodies.
        val f = c.trialFailures
        assertTrue(f[FailureKind.INVALID_BODY] >= 1, f.summary())
        assertEquals(f[FailureKind.INVALID_BODY], f.total, f.summary())
        assertEquals(good.toLong(), c.endIteration().successes)
        c.trialFailures.first!!
    }

    private val wrongState = ": /state: expected \"NEW\", was \"LOST\"; body \"{\"id\":"

    /** A loopback HTTP/1.1 server answering each request with [answer]'s next order, head and body apart. */
    private fun h1Server(badFrom: Int): RawServer {
        val count = AtomicInteger()
        return RawServer { s: Socket ->
            while (RawServer.readRequest(s)) {
                val body = answer(count.getAndIncrement(), badFrom).toByteArray()
                val head = "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n" +
                    "Content-Length: ${body.size}\r\n\r\n"
                // Separate writes: the body may arrive in a read of its own.
                s.getOutputStream().write(head.toByteArray())
                s.getOutputStream().flush()
                s.getOutputStream().write(body)
                s.getOutputStream().flush()
            }
        }
    }

    @Test
    fun `HTTP 1_1 - answers with generated ids pass, a wrong field is an invalid body that names it`() {
        h1Server(badFrom = Int.MAX_VALUE).use { raw -> passes(raw.address, 2, 50, strict) }
        h1Server(badFrom = 5).use { raw ->
            val first = failsAfter(raw.address, 5, strict, wrongState)
            assertTrue(first.startsWith("GET /orders/new on "), first)
        }
    }

    /** A loopback h2c server answering each request with [answer]'s next order. */
    private fun h2Server(badFrom: Int): InetSocketAddress {
        val count = AtomicInteger()
        val channel = ServerBootstrap().group(group).channel(NioServerSocketChannel::class.java)
            .childHandler(object : ChannelInitializer<Channel>() {
                override fun initChannel(ch: Channel) {
                    val answers = H2FailuresTest.Answers()
                    val listener = answers.listener { n, id ->
                        answers.respond(id, 200, answer(n, badFrom), type = "application/json;charset=UTF-8")
                    }.also { it.count = count }
                    answers.handler = Http2ConnectionHandlerBuilder().server(true).frameListener(listener).build()
                    ch.pipeline().addLast(answers.handler)
                }
            })
            .bind(InetAddress.getLoopbackAddress(), 0).sync().channel()
        return InetSocketAddress("127.0.0.1", (channel.localAddress() as InetSocketAddress).port)
    }

    @Test
    fun `h2 - answers with generated ids pass, a wrong field fails its own stream as an invalid body`() {
        passes(h2Server(badFrom = Int.MAX_VALUE), 2, 100, strict.copy(http2Streams = 4))
        val first = failsAfter(h2Server(badFrom = 5), 5, strict.copy(http2Streams = 1), wrongState)
        assertTrue(first.contains(": stream ") && first.contains(wrongState), first)
    }

    @Test
    fun `TLS, HTTP 1_1 and h2 - the JSON family's answer passes by its fields and fails by a wrong one`() {
        val order = OrderJson.request("/json/direct", 1024)
        val summary = order.expectedBody
        val lines = Regex("\"sku\"").findAll(summary).count()

        fun request(expect: ResponseExpectation) =
            Request(order.path, "the order's summary", body = order.body, expect = expect)
        val right = request(
            Expect.status(200).contentType(Request.JSON)
                .json("/orderId", Expect.value("ord-2026-000123"))
                .json("/lineCount", Expect.value(lines))
                .json("/lines/0/sku", Expect.matches("SKU-\\d{6}"))
                .json("/totalCents", Expect.integer()),
        )
        val wrong = request(Expect.json("/lineCount", Expect.string()))

        ServerFixture.start(ServerKind.NETTY, H2Params.properties(true), tls = true).use { server ->
            for (streams in listOf(0, 2)) {
                passes(server.address, 2, 20, server.clientSettings(strict.copy(http2Streams = streams)), right)
                val one = server.clientSettings(strict.copy(http2Streams = minOf(streams, 1)))
                failsAfter(
                    server.address,
                    0,
                    one,
                    "/lineCount: expected a string, was $lines; body \"{\"orderId\":",
                    wrong,
                )
            }
        }
    }
}
