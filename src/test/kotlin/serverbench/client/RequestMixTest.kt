package serverbench.client

import io.netty.bootstrap.ServerBootstrap
import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import io.netty.channel.Channel
import io.netty.channel.ChannelHandlerContext
import io.netty.channel.ChannelInitializer
import io.netty.channel.MultiThreadIoEventLoopGroup
import io.netty.channel.SimpleChannelInboundHandler
import io.netty.channel.nio.NioIoHandler
import io.netty.channel.socket.nio.NioServerSocketChannel
import io.netty.handler.codec.http.DefaultFullHttpResponse
import io.netty.handler.codec.http.FullHttpRequest
import io.netty.handler.codec.http.HttpHeaderNames
import io.netty.handler.codec.http.HttpObjectAggregator
import io.netty.handler.codec.http.HttpResponseStatus
import io.netty.handler.codec.http.HttpServerCodec
import io.netty.handler.codec.http.HttpVersion
import io.netty.handler.codec.http2.DefaultHttp2Headers
import io.netty.handler.codec.http2.Http2ConnectionHandler
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder
import io.netty.handler.codec.http2.Http2FrameAdapter
import io.netty.handler.codec.http2.Http2Headers
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.net.InetAddress
import java.net.InetSocketAddress
import java.nio.charset.StandardCharsets
import java.time.Duration
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.TimeUnit
import kotlin.math.abs
import kotlin.test.assertContains
import kotlin.test.assertContentEquals
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertTrue

/**
 * A [RequestMix] end to end over loopback sockets, on HTTP/1.1 and HTTP/2, against a server that records each request
 * and answers each path its own way: the sends follow the weights exactly (counted by the server), each response is
 * held to its own entry's checks, and a failing entry is named in the failure's line and by [LoadGroup.verify].
 * Nothing here is timed: the counts are exact once the client has drained.
 */
class RequestMixTest {
    private val group = MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory())

    /** Each request as the server read it: "METHOD /path". */
    private val received = ConcurrentLinkedQueue<String>()

    @AfterEach
    fun stop() {
        group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync()
    }

    @Test
    fun `the cycle interleaves the weights, one entry at a time`() {
        val a = Request("/a", "a")
        val b = Request("/b", "b")
        val c = Request("/c", "c")
        assertContentEquals(intArrayOf(0, 0, 1, 0), mix(a to 3, b to 1).cycle)
        assertContentEquals(intArrayOf(0, 1), mix(a to 20, b to 20).cycle, "weights reduced by their divisor")
        assertContentEquals(intArrayOf(0, 1, 2, 0, 0, 1, 0, 2, 1, 0), mix(a to 5, b to 3, c to 2).cycle)
        assertContentEquals(intArrayOf(0), RequestMix.of(a).cycle)
    }

    @Test
    fun `weights below one and an empty mix are refused in one line`() {
        val request = Request("/a", "a")
        val messages = listOf(
            assertThrows<IllegalArgumentException> { RequestMix.Entry(request, 0) },
            assertThrows<IllegalArgumentException> { RequestMix.Entry(request, -2, "neg") },
            assertThrows<IllegalArgumentException> { RequestMix(emptyList()) },
            assertThrows<IllegalArgumentException> {
                RequestMix(listOf(RequestMix.Entry(request, 600_000), RequestMix.Entry(request, 600_000)))
            },
        ).map { it.message!! }
        assertContains(messages[0], "weight must be >= 1, was 0 for GET /a")
        assertContains(messages[1], "was -2 for neg")
        assertContains(messages[2], "at least one request")
        for (m in messages) assertFalse('\n' in m, m)
    }

    @Test
    fun `sends follow the weights exactly over HTTP1, closed loop`() = proportions(h1Server(), ClientSettings())

    @Test
    fun `sends follow the weights exactly over HTTP2, closed loop`() =
        proportions(h2Server(), ClientSettings(http2Streams = 4))

    @Test
    fun `sends follow the weights exactly in open loop`() = proportions(h1Server(), ClientSettings(), rate = 2000.0)

    @Test
    fun `each thread of a group follows the weights from its own place in the cycle`() {
        val address = h1Server()
        val m = mix(Request("/a", "a") to 3, Request("/b", "b") to 1)
        LoadGroup(address, 4, m, ClientSettings(timeout = TIMEOUT), threads = 2).use { g ->
            g.start()
            repeat(REQUESTS) { g.next() }
            assertEquals(0, g.drain(), "nothing left in flight")
            val a = received.count { it == "GET /a" }.toLong()
            val b = received.count { it == "GET /b" }.toLong()
            assertEquals(listOf(a, b), g.endIteration().entrySuccesses, "every thread's successes, by entry")
            // A prefix of A A B A is off 3:1 by at most 2 A; each of the two threads sent one prefix.
            assertTrue(abs(a - 3 * b) <= 4, "$a GET /a, $b GET /b")
        }
    }

    @Test
    fun `GET, HEAD and POST entries are each held to their own answer over HTTP1`() = ownChecks(h1Server(), 4)

    @Test
    fun `GET, HEAD and POST entries are each held to their own answer over HTTP2`() = ownChecks(h2Server(), 4, 4)

    @Test
    fun `a failing entry is named in the failure's line over HTTP1`() {
        val e = failing(h1Server(), ClientSettings(timeout = TIMEOUT))
        assertContains(e.message!!, "first: POST /orders (create) on /127.0.0.1:")
        assertContains(e.message!!, ": HTTP 500")
    }

    @Test
    fun `a failing entry is named in the failure's line over HTTP2`() {
        val e = failing(h2Server(), ClientSettings(timeout = TIMEOUT, http2Streams = 2))
        assertContains(e.message!!, "first: POST /orders (create) on /127.0.0.1:")
        assertContains(e.message!!, ": HTTP 500")
    }

    @Test
    fun `verify sends each entry once and names the one that fails`() {
        val address = h1Server()
        val settings = ClientSettings(timeout = TIMEOUT)
        val good = mix(Request("/a", "a") to 3, Request("/b", "b") to 1, Request("/c", "c") to 2)
        LoadGroup.verify(address, good, settings, remoteAllowed = false)
        assertEquals(listOf("GET /a", "GET /b", "GET /c"), received.toList())
        val bad = RequestMix(
            listOf(
                RequestMix.Entry(Request("/a", "a"), 3),
                RequestMix.Entry(Request("/orders", "created", body = ORDER), 1, "create"),
            ),
        )
        val e = assertThrows<LoadFailure> { LoadGroup.verify(address, bad, settings, remoteAllowed = false) }
        assertContains(e.message!!, "first: POST /orders (create) on /127.0.0.1:${address.port}: HTTP 500")
        assertFalse('\n' in e.message!!)
    }

    /** A 3:1 mix: the server's counts are the cycle's, exactly, whatever the count of requests sent. */
    private fun proportions(address: InetSocketAddress, settings: ClientSettings, rate: Double = 0.0) {
        val a = Request("/a", "a")
        val b = Request("/b", "b")
        val m = mix(a to 3, b to 1)
        LoadClient(address, 8, m, settings.copy(timeout = TIMEOUT), rate).use { c ->
            c.start()
            // An open loop's schedule starts with the iteration; it sent nothing before, so nothing is discarded.
            if (rate > 0) c.beginIteration()
            repeat(REQUESTS) { c.next() }
            assertEquals(0, c.drain(), "nothing left in flight")
            assertEquals(0, c.trialFailures.total, "${c.trialFailures.summary()}: ${c.trialFailures.first}")
            val sent = received.size
            // The client sent the cycle's first `sent` entries: whole cycles, then a part of one.
            val wanted = (0 until sent).groupingBy { m.cycle[it % m.cycle.size] }.eachCount()
            assertEquals(wanted[0], received.count { it == "GET /a" }, "of $sent")
            assertEquals(wanted[1], received.count { it == "GET /b" }, "of $sent")
            assertTrue(sent >= REQUESTS)
            // No success was read before the counts began: the report counts every one, by entry.
            val report = c.endIteration()
            assertEquals(listOf(wanted[0]!!.toLong(), wanted[1]!!.toLong()), report.entrySuccesses)
        }
    }

    /** A GET of text, a HEAD and a POST answered 201 with JSON, each valid only for its own entry. */
    private fun ownChecks(address: InetSocketAddress, connections: Int, streams: Int = 0) {
        val get = Request("/text", "plain words", expectedContentType = "text/plain")
        val head = Request("/text", "", method = Method.HEAD)
        // Templated: rendered per send, as a request alone is.
        val post = Request(
            "/orders/new",
            "a created order",
            bodyTemplate = "{\"item\":\"tea\",\"n\":{{seq}}}",
            expect = Expect.status(201).contentType(Request.JSON).json("/id", Expect.integer()),
        )
        val m = mix(get to 2, head to 1, post to 1)
        LoadClient(address, connections, m, ClientSettings(timeout = TIMEOUT, http2Streams = streams)).use { c ->
            c.start()
            repeat(REQUESTS) { c.next() }
            assertEquals(0, c.drain())
            assertEquals(0, c.trialFailures.total, "${c.trialFailures.summary()}: ${c.trialFailures.first}")
            val counts = c.endIteration().entrySuccesses
            assertEquals(received.count { it == "GET /text" }.toLong(), counts[0])
            assertEquals(received.count { it == "HEAD /text" }.toLong(), counts[1])
            assertEquals(received.count { it == "POST /orders/new" }.toLong(), counts[2])
            assertEquals(c.responses, counts.sum())
        }
    }

    /** A mix whose third entry the server refuses with a 500: the client fails at the first one (no tolerance). */
    private fun failing(address: InetSocketAddress, settings: ClientSettings): LoadFailure {
        val m = RequestMix(
            listOf(
                RequestMix.Entry(Request("/a", "a"), 2),
                RequestMix.Entry(Request("/b", "b"), 1, "b"),
                RequestMix.Entry(Request("/orders", "created", body = ORDER), 1, "create"),
            ),
        )
        return LoadClient(address, 2, m, settings).use { c ->
            assertThrows<LoadFailure> {
                c.start()
                repeat(REQUESTS) { c.next() }
            }
        }
    }

    /** The answer to [method] [path]: status, Content-Type and body (a HEAD's is announced, not sent). */
    private fun answer(method: String, path: String): Triple<Int, String, String> = when {
        path == "/text" -> Triple(200, "text/plain", "plain words")
        path == "/orders/new" && method == "POST" -> Triple(201, "application/json", "{\"id\":42}")
        path == "/orders" -> Triple(500, "text/plain", "no orders today")
        else -> Triple(200, "text/plain", path.removePrefix("/"))
    }

    private fun h1Server(): InetSocketAddress = bind(object : ChannelInitializer<Channel>() {
        override fun initChannel(ch: Channel) {
            ch.pipeline().addLast(HttpServerCodec(), HttpObjectAggregator(1 shl 20), H1Answers())
        }
    })

    private inner class H1Answers : SimpleChannelInboundHandler<FullHttpRequest>() {
        override fun channelRead0(ctx: ChannelHandlerContext, req: FullHttpRequest) {
            val method = req.method().name()
            received += "$method ${req.uri()}"
            val (status, type, body) = answer(method, req.uri())
            val bytes = body.toByteArray(StandardCharsets.UTF_8)
            // The codec writes a HEAD's answer without a body, its Content-Length kept: the client must not wait.
            val content = if (method == "HEAD") Unpooled.EMPTY_BUFFER else Unpooled.wrappedBuffer(bytes)
            val res = DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status), content)
            res.headers().set(HttpHeaderNames.CONTENT_LENGTH, bytes.size).set(HttpHeaderNames.CONTENT_TYPE, type)
            ctx.writeAndFlush(res)
        }
    }

    /** An h2c server (prior knowledge) answering each stream as [answer] says. */
    private fun h2Server(): InetSocketAddress = bind(object : ChannelInitializer<Channel>() {
        override fun initChannel(ch: Channel) {
            val answers = H2Answers()
            val handler = Http2ConnectionHandlerBuilder().server(true).frameListener(answers).build()
            answers.handler = handler
            ch.pipeline().addLast(handler)
        }
    })

    private inner class H2Answers : Http2FrameAdapter() {
        lateinit var handler: Http2ConnectionHandler
        private val heads = HashMap<Int, Http2Headers>()

        override fun onHeadersRead(
            ctx: ChannelHandlerContext,
            streamId: Int,
            headers: Http2Headers,
            padding: Int,
            endOfStream: Boolean,
        ) {
            heads[streamId] = headers
            if (endOfStream) respond(ctx, streamId)
        }

        override fun onHeadersRead(
            ctx: ChannelHandlerContext,
            streamId: Int,
            headers: Http2Headers,
            streamDependency: Int,
            weight: Short,
            exclusive: Boolean,
            padding: Int,
            endOfStream: Boolean,
        ) = onHeadersRead(ctx, streamId, headers, padding, endOfStream)

        override fun onDataRead(
            ctx: ChannelHandlerContext,
            streamId: Int,
            data: ByteBuf,
            padding: Int,
            endOfStream: Boolean,
        ): Int {
            if (endOfStream) respond(ctx, streamId)
            return data.readableBytes() + padding
        }

        private fun respond(ctx: ChannelHandlerContext, streamId: Int) {
            val head = heads.remove(streamId)!!
            val method = "${head.method()}"
            received += "$method ${head.path()}"
            val (status, type, body) = answer(method, "${head.path()}")
            val bytes = body.toByteArray(StandardCharsets.UTF_8)
            val isHead = method == "HEAD"
            val headers = DefaultHttp2Headers().status("$status").add("content-type", type)
                .add("content-length", "${bytes.size}")
            handler.encoder().writeHeaders(ctx, streamId, headers, 0, isHead, ctx.newPromise())
            if (!isHead) {
                handler.encoder().writeData(ctx, streamId, Unpooled.wrappedBuffer(bytes), 0, true, ctx.newPromise())
            }
            ctx.flush()
        }
    }

    private fun bind(initializer: ChannelInitializer<Channel>): InetSocketAddress {
        val channel = ServerBootstrap().group(group).channel(NioServerSocketChannel::class.java)
            .childHandler(initializer).bind(InetAddress.getLoopbackAddress(), 0).sync().channel()
        return InetSocketAddress("127.0.0.1", (channel.localAddress() as InetSocketAddress).port)
    }

    private fun mix(vararg weighted: Pair<Request, Int>) =
        RequestMix(weighted.map { (request, weight) -> RequestMix.Entry(request, weight) })

    private companion object {
        const val REQUESTS = 400
        val TIMEOUT: Duration = Duration.ofSeconds(20)
        val ORDER = "{\"item\":\"tea\"}".toByteArray(StandardCharsets.UTF_8)
    }
}
