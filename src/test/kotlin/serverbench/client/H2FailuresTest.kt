package serverbench.client

import io.netty.bootstrap.ServerBootstrap
import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import io.netty.channel.Channel
import io.netty.channel.ChannelHandlerContext
import io.netty.channel.ChannelInitializer
import io.netty.channel.MultiThreadIoEventLoopGroup
import io.netty.channel.nio.NioIoHandler
import io.netty.channel.socket.nio.NioServerSocketChannel
import io.netty.handler.codec.http2.DefaultHttp2Headers
import io.netty.handler.codec.http2.Http2ConnectionHandler
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder
import io.netty.handler.codec.http2.Http2Error
import io.netty.handler.codec.http2.Http2FrameAdapter
import io.netty.handler.codec.http2.Http2Headers
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import java.net.InetAddress
import java.net.InetSocketAddress
import java.nio.charset.StandardCharsets
import java.time.Duration
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * Failures per stream (`-p protocol=h2`), against an HTTP/2 server that misbehaves on purpose (no real stack resets
 * every fourth stream): each failure is counted by kind on its own stream while the others go on, and a
 * connection-level failure (a close, a GOAWAY) counts each stream it left unanswered.
 */
class H2FailuresTest {
    private val group = MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory())
    private val hello = Request("/hello", "hello")

    @AfterEach
    fun stop() {
        group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS).sync()
    }

    /** A loopback h2c server; [answer] gets each request's number (from 0) and stream and answers it, or not. */
    private fun server(answer: (n: Int, stream: Int, s: Answers) -> Unit): InetSocketAddress {
        val count = java.util.concurrent.atomic.AtomicInteger()
        val channel = ServerBootstrap().group(group).channel(NioServerSocketChannel::class.java)
            .childHandler(object : ChannelInitializer<Channel>() {
                override fun initChannel(ch: Channel) {
                    val answers = Answers()
                    val handler = Http2ConnectionHandlerBuilder().server(true).frameListener(
                        answers.listener { n, id ->
                            answer(n, id, answers)
                        }.also { it.count = count },
                    ).build()
                    answers.handler = handler
                    ch.pipeline().addLast(handler)
                }
            })
            .bind(InetAddress.getLoopbackAddress(), 0).sync().channel()
        return InetSocketAddress("127.0.0.1", (channel.localAddress() as InetSocketAddress).port)
    }

    class Answers {
        lateinit var handler: Http2ConnectionHandler
        lateinit var ctx: ChannelHandlerContext
        val held = ArrayList<Int>()

        fun respond(stream: Int, status: Int, body: String, type: String = "text/plain") {
            val headers: Http2Headers = DefaultHttp2Headers().status(status.toString()).add("content-type", type)
            handler.encoder().writeHeaders(ctx, stream, headers, 0, false, ctx.newPromise())
            val data: ByteBuf = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8)
            handler.encoder().writeData(ctx, stream, data, 0, true, ctx.newPromise())
            ctx.channel().flush()
        }

        fun reset(stream: Int) {
            handler.resetStream(ctx, stream, Http2Error.CANCEL.code(), ctx.newPromise())
            ctx.channel().flush()
        }

        fun goAway(lastStream: Int) {
            handler.goAway(ctx, lastStream, Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER, ctx.newPromise())
            ctx.channel().flush()
        }

        fun listener(onRequest: (Int, Int) -> Unit) = Listener(this, onRequest)
    }

    class Listener(private val a: Answers, private val onRequest: (Int, Int) -> Unit) : Http2FrameAdapter() {
        lateinit var count: java.util.concurrent.atomic.AtomicInteger

        override fun onHeadersRead(
            ctx: ChannelHandlerContext,
            streamId: Int,
            headers: Http2Headers,
            padding: Int,
            endOfStream: Boolean,
        ) {
            a.ctx = ctx
            onRequest(count.getAndIncrement(), streamId)
        }

        // Netty's decoder calls this form, with the default priority, whether or not the frame carried one.
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
    }

    private fun client(address: InetSocketAddress, slots: Int, streams: Int, timeoutMs: Long = 30_000) = LoadClient(
        address,
        slots,
        hello,
        ClientSettings(maxErrors = 100_000, timeout = Duration.ofMillis(timeoutMs), http2Streams = streams),
    )

    private fun LoadClient.channels() = slots.all.mapNotNull { it?.channel }.distinct().size

    @Test
    fun `a reset, a bad status and a wrong body each fail their own stream while the others go on`() {
        val address = server { n, id, s ->
            when (n % 4) {
                1 -> s.reset(id)
                2 -> s.respond(id, 500, "no")
                3 -> s.respond(id, 200, "hellO")
                else -> s.respond(id, 200, "hello")
            }
        }
        client(address, 4, 4).use { c ->
            c.start()
            c.beginIteration()
            repeat(200) { c.next() }
            val f = c.trialFailures
            println("failures: ${f.summary()}; first ${f.first}")
            // Request k of 4 in a row succeeds: 200 successes came with 600 failures, give or take the ones in flight.
            for (kind in listOf(FailureKind.RESET, FailureKind.NON_2XX, FailureKind.INVALID_BODY)) {
                assertTrue(f[kind] in 196..204, "${kind.label}: ${f[kind]} (${f.summary()})")
            }
            assertEquals(f.total, f[FailureKind.RESET] + f[FailureKind.NON_2XX] + f[FailureKind.INVALID_BODY])
            assertEquals(0, c.stats.reconnects)
            assertEquals(1, c.channels(), "one connection throughout")
        }
    }

    @Test
    fun `a connection closed with streams in flight counts each of them, and the slots move to a new connection`() {
        val address = server { n, id, s ->
            if (n < 8 || n >= 12) {
                s.respond(id, 200, "hello")
            } else {
                s.held += id
                if (s.held.size == 4) s.ctx.close()
            }
        }
        client(address, 4, 4).use { c ->
            c.start()
            c.beginIteration()
            repeat(40) { c.next() }
            val f = c.trialFailures
            assertEquals(4, f[FailureKind.CLOSED], f.summary())
            assertEquals(4, f.total, f.summary())
            assertTrue(f.first!!.contains("with 4 streams in flight"), f.first)
        }
    }

    @Test
    fun `a GOAWAY fails the streams it leaves unprocessed, the others complete`() {
        val address = server { n, id, s ->
            if (n < 8 || n >= 12) {
                s.respond(id, 200, "hello")
            } else {
                s.held += id
                if (s.held.size == 4) {
                    s.goAway(s.held[0])
                    s.respond(s.held[0], 200, "hello")
                }
            }
        }
        client(address, 4, 4).use { c ->
            c.start()
            c.beginIteration()
            repeat(40) { c.next() }
            val f = c.trialFailures
            assertEquals(3, f[FailureKind.GOAWAY], f.summary())
            assertEquals(3, f.total, f.summary())
        }
    }

    @Test
    fun `a stream without an answer times out alone and its slot carries on`() {
        val address = server { n, id, s -> if (n != 2) s.respond(id, 200, "hello") }
        client(address, 4, 4, timeoutMs = 300).use { c ->
            c.start()
            c.beginIteration()
            repeat(100) { c.next() }
            val deadline = System.nanoTime() + 2_000_000_000L
            while (c.trialFailures.total == 0L && System.nanoTime() < deadline) c.turn()
            val f = c.trialFailures
            assertEquals(1, f[FailureKind.TIMEOUT], f.summary())
            assertEquals(1, f.total, f.summary())
            repeat(100) { c.next() }
            assertEquals(1, c.channels(), "the timed-out stream was reset, the connection kept")
        }
    }
}
