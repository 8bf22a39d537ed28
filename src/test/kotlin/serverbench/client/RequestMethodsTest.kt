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
import io.netty.handler.ssl.SslContext
import io.netty.handler.ssl.SslContextBuilder
import io.netty.handler.ssl.SslProvider
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.springframework.boot.ssl.SslBundle
import org.springframework.boot.ssl.pem.PemSslStoreBundle
import org.springframework.boot.ssl.pem.PemSslStoreDetails
import serverbench.fixture.TlsCertificate
import java.io.ByteArrayOutputStream
import java.net.InetAddress
import java.net.InetSocketAddress
import java.nio.charset.StandardCharsets
import java.time.Duration
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.TimeUnit
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * Requests as users write them, end to end over loopback sockets: PUT, PATCH, DELETE, HEAD and a body-less POST, with
 * extra headers, a templated path and body, on HTTP/1.1, over TLS and on HTTP/2, each against a server that records
 * what it received. Every request must arrive with its own sequence number, its headers and its body as rendered; a
 * HEAD's answer, headers with a `Content-Length` and no body, must complete.
 */
class RequestMethodsTest {
    private val group = MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory())
    private val received = ConcurrentLinkedQueue<Received>()

    /** One request as the server read it; header names lower case. */
    data class Received(val method: String, val path: String, val headers: Map<String, String>, val body: String)

    @AfterEach
    fun stop() {
        group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync()
    }

    @Test
    fun `every method over HTTP1`() {
        val address = h1Server()
        for (method in METHODS) check(method, address, ClientSettings(timeout = TIMEOUT))
    }

    @Test
    fun `every method over TLS`() {
        val cert = TlsCertificate.generate()
        val address = h1Server(serverTls(cert))
        val settings = ClientSettings(timeout = TIMEOUT, tls = ClientTls.trusting(cert.certificate))
        for (method in METHODS) check(method, address, settings)
    }

    @Test
    fun `every method over HTTP2`() {
        val address = h2Server()
        for (method in METHODS) check(method, address, ClientSettings(timeout = TIMEOUT, http2Streams = 4), h2 = true)
    }

    @Test
    fun `a constant request with headers goes out unchanged on every send`() {
        val address = h1Server()
        val request = Request("/plain?x=1", "ok", method = Method.DELETE, headers = mapOf("X-Tenant" to "acme"))
        LoadClient(address, 2, request, ClientSettings(timeout = TIMEOUT)).use { c ->
            c.start()
            repeat(50) { c.next() }
            c.drain()
            assertEquals(0, c.trialFailures.total, "${c.trialFailures.summary()}: ${c.trialFailures.first}")
        }
        val got = received.toList()
        assertTrue(got.size >= 50)
        assertTrue(
            got.all {
                it == Received("DELETE", "/plain?x=1", it.headers, "") && it.headers["x-tenant"] == "acme"
            },
        )
    }

    /** [method] with headers and, where it may carry one, a templated body: checks what the server received. */
    private fun check(method: Method, address: InetSocketAddress, settings: ClientSettings, h2: Boolean = false) {
        received.clear()
        val request = Request(
            "/orders/{{seq}}?tenant=acme",
            if (method == Method.HEAD) "" else "ok",
            method = method,
            headers = mapOf("X-Tenant" to "acme", "X-Trace-Id" to "{{not a placeholder in a header}}"),
            bodyTemplate = if (method == Method.PUT || method == Method.PATCH) BODY else null,
        )
        LoadClient(address, 4, request, settings).use { c ->
            c.start()
            repeat(REQUESTS) { c.next() }
            assertEquals(0, c.drain(), "nothing left in flight")
            val f = c.trialFailures
            assertEquals(0, f.total, "$method: ${f.summary()}: ${f.first}")
            assertEquals(c.responses, received.size.toLong(), "$method: every request answered, none lost")
        }
        val seqs = HashSet<Long>()
        for (r in received) {
            assertEquals(method.name, r.method)
            val seq = Regex("/orders/([0-9]+)\\?tenant=acme").matchEntire(r.path)?.groupValues?.get(1)?.toLong()
                ?: error("$method: path ${r.path}")
            assertTrue(seqs.add(seq), "$method: sequence number $seq sent twice")
            assertEquals("acme", r.headers["x-tenant"])
            assertEquals("{{not a placeholder in a header}}", r.headers["x-trace-id"], "headers are sent as given")
            if (request.bodyTemplate != null) {
                val m = RENDERED_BODY.matchEntire(r.body) ?: error("$method: body ${r.body}")
                assertEquals(seq, m.groupValues[1].toLong(), "path and body carry the same number")
                assertEquals("${r.body.toByteArray().size}", r.headers["content-length"])
                assertEquals("application/json", r.headers["content-type"])
            } else {
                assertEquals("", r.body)
            }
            if (!h2) assertEquals("127.0.0.1:${address.port}", r.headers["host"])
        }
        assertTrue(seqs.size >= REQUESTS, "$method: ${seqs.size} requests")
    }

    /** An HTTP/1.1 server (over TLS with [ssl]) that records each request and answers "ok" (a HEAD: headers only). */
    private fun h1Server(ssl: SslContext? = null): InetSocketAddress = bind(object : ChannelInitializer<Channel>() {
        override fun initChannel(ch: Channel) {
            ssl?.let { ch.pipeline().addLast(it.newHandler(ch.alloc())) }
            ch.pipeline().addLast(HttpServerCodec(), HttpObjectAggregator(1 shl 20), H1Recorder())
        }
    })

    private inner class H1Recorder : SimpleChannelInboundHandler<FullHttpRequest>() {
        override fun channelRead0(ctx: ChannelHandlerContext, req: FullHttpRequest) {
            val headers = req.headers().associate { it.key.lowercase() to it.value }
            received +=
                Received(req.method().name(), req.uri(), headers, req.content().toString(StandardCharsets.UTF_8))
            // The codec writes a HEAD's answer without a body, its Content-Length kept: the client must not wait.
            val content = if (req.method().name() == "HEAD") Unpooled.EMPTY_BUFFER else ok()
            val res = DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, content)
            res.headers().set(HttpHeaderNames.CONTENT_LENGTH, 2).set(HttpHeaderNames.CONTENT_TYPE, "text/plain")
            ctx.writeAndFlush(res)
        }
    }

    /** An h2c server (prior knowledge) that records each stream's request and answers "ok" (a HEAD: HEADERS only). */
    private fun h2Server(): InetSocketAddress = bind(object : ChannelInitializer<Channel>() {
        override fun initChannel(ch: Channel) {
            val recorder = H2Recorder()
            val handler = Http2ConnectionHandlerBuilder().server(true).frameListener(recorder).build()
            recorder.handler = handler
            ch.pipeline().addLast(handler)
        }
    })

    private inner class H2Recorder : Http2FrameAdapter() {
        lateinit var handler: Http2ConnectionHandler
        private val heads = HashMap<Int, Http2Headers>()
        private val bodies = HashMap<Int, ByteArrayOutputStream>()

        override fun onHeadersRead(
            ctx: ChannelHandlerContext,
            streamId: Int,
            headers: Http2Headers,
            padding: Int,
            endOfStream: Boolean,
        ) {
            heads[streamId] = headers
            if (endOfStream) answer(ctx, streamId)
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
            val n = data.readableBytes()
            data.readBytes(bodies.getOrPut(streamId) { ByteArrayOutputStream() }, n)
            if (endOfStream) answer(ctx, streamId)
            return n + padding
        }

        private fun answer(ctx: ChannelHandlerContext, streamId: Int) {
            val head = heads.remove(streamId)!!
            val body = bodies.remove(streamId)?.toString(StandardCharsets.UTF_8) ?: ""
            val headers = head.filter { !it.key.startsWith(":") }.associate { "${it.key}" to "${it.value}" }
            received += Received("${head.method()}", "${head.path()}", headers, body)
            val isHead = "${head.method()}" == "HEAD"
            val answer = DefaultHttp2Headers().status(
                "200",
            ).add("content-type", "text/plain").add("content-length", "2")
            handler.encoder().writeHeaders(ctx, streamId, answer, 0, isHead, ctx.newPromise())
            if (!isHead) handler.encoder().writeData(ctx, streamId, ok(), 0, true, ctx.newPromise())
            ctx.flush()
        }
    }

    private fun ok(): ByteBuf = Unpooled.copiedBuffer("ok", StandardCharsets.UTF_8)

    private fun bind(initializer: ChannelInitializer<Channel>): InetSocketAddress {
        val channel = ServerBootstrap().group(group).channel(NioServerSocketChannel::class.java)
            .childHandler(initializer).bind(InetAddress.getLoopbackAddress(), 0).sync().channel()
        return InetSocketAddress("127.0.0.1", (channel.localAddress() as InetSocketAddress).port)
    }

    /** A server TLS context for [cert], its key read as H2CountsTest reads it (Boot's PEM reader). */
    private fun serverTls(cert: TlsCertificate): SslContext {
        val props = cert.serverProperties()
        val pem = PemSslStoreDetails.forCertificate(props.getValue("server.ssl.certificate") as String)
            .withPrivateKey(props.getValue("server.ssl.certificate-private-key") as String)
        val keys = SslBundle.of(PemSslStoreBundle(pem, null)).managers.keyManagerFactory
        return SslContextBuilder.forServer(keys).sslProvider(SslProvider.JDK).protocols(ClientTls.PROTOCOL).build()
    }

    private companion object {
        val METHODS = listOf(Method.PUT, Method.PATCH, Method.DELETE, Method.HEAD, Method.POST)
        const val REQUESTS = 200
        val TIMEOUT: Duration = Duration.ofSeconds(10)
        const val BODY = "{\"id\":{{seq}},\"ref\":\"{{uuid}}\",\"n\":{{random}},\"note\":\"caf\u00e9 \\{{x}}\"}"
        val RENDERED_BODY = Regex(
            "\\{\"id\":([0-9]+),\"ref\":\"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\"," +
                "\"n\":[0-9]+,\"note\":\"caf\u00e9 \\{\\{x}}\"}",
        )
    }
}
