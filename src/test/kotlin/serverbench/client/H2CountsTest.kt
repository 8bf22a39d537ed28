package serverbench.client

import io.netty.bootstrap.ServerBootstrap
import io.netty.channel.Channel
import io.netty.channel.ChannelInitializer
import io.netty.channel.MultiThreadIoEventLoopGroup
import io.netty.channel.nio.NioIoHandler
import io.netty.channel.socket.nio.NioServerSocketChannel
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder
import io.netty.handler.ssl.ApplicationProtocolConfig
import io.netty.handler.ssl.ApplicationProtocolNames
import io.netty.handler.ssl.SslContextBuilder
import io.netty.handler.ssl.SslProvider
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.springframework.boot.ssl.SslBundle
import org.springframework.boot.ssl.pem.PemSslStoreBundle
import org.springframework.boot.ssl.pem.PemSslStoreDetails
import serverbench.benchmarks.H2Params
import serverbench.benchmarks.OrderJson
import serverbench.fixture.ServerFixture
import serverbench.fixture.ServerKind
import serverbench.fixture.TlsCertificate
import serverbench.metrics.IterationReport
import serverbench.metrics.LoadMetricsProfiler
import java.net.InetAddress
import java.net.InetSocketAddress
import java.time.Duration
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.math.abs
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * What the client counts on `-p protocol=h2`, each against a real server: a new connection is one TCP connect and one
 * TLS handshake however many streams it carries, and `bytes.inPerReq` / `bytes.outPerReq` are the HTTP/2 frames
 * written and read (HPACK-encoded headers included), not an HTTP/1.1 request never sent nor bodies alone.
 */
class H2CountsTest {
    private val group = MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory())

    @AfterEach
    fun stop() {
        group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync()
    }

    @Test
    fun `a new h2 connection counts once, not once per stream, and so does its TLS handshake`() {
        TlsCertificate.generate().let { cert ->
            val accepted = AtomicInteger()
            val address = tlsServer(cert, accepted) { n, id, s ->
                s.respond(id, 200, "hello")
                // Every 40th request the server says goodbye: the client's 8 stream slots move to a new connection.
                if (n % 40 == 39) s.goAway(id)
            }
            val settings = ClientSettings(
                maxErrors = 100_000,
                timeout = Duration.ofSeconds(30),
                tls = ClientTls.trusting(cert.certificate, h2 = true),
                http2Streams = 8,
            )
            LoadClient(address, 8, Request("/hello", "hello"), settings).use { c ->
                c.start()
                repeat(8) { c.next() }
                c.beginIteration()
                val before = accepted.get()
                repeat(400) { c.next() }
                val report = c.endIteration()
                val opened = accepted.get() - before
                val h = report.handshakes
                // A connection opening as the iteration begins or ends may fall on either side of one count.
                assertTrue(opened >= 3, "the server's goodbyes made new connections: $opened")
                assertTrue(abs(h.connects - opened) <= 1, "client counted ${h.connects}, the server accepted $opened")
                val handshakes = h.tlsFull + h.tlsResumed
                assertTrue(abs(handshakes - h.connects) <= 1, "$handshakes TLS handshakes, ${h.connects} connections")
            }
        }
    }

    @Test
    fun `on h2 the bytes per request are the frames written and read, HPACK-encoded headers included`() {
        val request = OrderJson.request("/json/direct", 1024)
        val body = request.body!!.size
        ServerFixture.start(ServerKind.NETTY, H2Params.properties(true)).use { server ->
            val settings = server.clientSettings(ClientSettings(timeout = Duration.ofSeconds(30), http2Streams = 4))
            LoadClient(server.address, 4, request, settings).use { c ->
                c.start()
                repeat(200) { c.next() }
                c.beginIteration()
                repeat(2000) { c.next() }
                val report = c.endIteration()
                assertEquals(0, report.failures.total, "${report.failures.summary()}: ${report.failures.first}")
                val figures = LoadMetricsProfiler.results(IterationReport(report, null)).associateBy { it.label }
                val sent = figures.getValue("bytes.inPerReq").score
                val read = figures.getValue("bytes.outPerReq").score
                val h1 = request.wireBytes(server.address.hostString, server.address.port).size
                // A DATA frame (9-byte frame header) for the body and a HEADERS frame whose HPACK block, after the
                // first request, is mostly indexes: fewer bytes than the HTTP/1.1 request, more than the body.
                assertTrue(sent >= body + 2 * FRAME_HEADER, "sent $sent per request, body $body")
                assertTrue(sent < h1, "sent $sent per request, the HTTP/1.1 request is $h1")
                val answer = request.expected.size
                assertTrue(read >= answer + 2 * FRAME_HEADER, "read $read per request, the answer's body $answer")
            }
        }
    }

    /** An h2 server over TLS (ALPN h2, TLS 1.3) that counts the connections it [accepted]. */
    private fun tlsServer(
        cert: TlsCertificate,
        accepted: AtomicInteger,
        answer: (n: Int, stream: Int, s: H2FailuresTest.Answers) -> Unit,
    ): InetSocketAddress {
        // The certificate and key as the servers get them (in memory, Boot's PEM properties), read by Boot's reader.
        val props = cert.serverProperties()
        val pem = PemSslStoreDetails.forCertificate(props.getValue("server.ssl.certificate") as String)
            .withPrivateKey(props.getValue("server.ssl.certificate-private-key") as String)
        val keys = SslBundle.of(PemSslStoreBundle(pem, null)).managers.keyManagerFactory
        val ssl = SslContextBuilder.forServer(keys).sslProvider(SslProvider.JDK).protocols(ClientTls.PROTOCOL)
            .applicationProtocolConfig(
                ApplicationProtocolConfig(
                    ApplicationProtocolConfig.Protocol.ALPN,
                    ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                    ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                    ApplicationProtocolNames.HTTP_2,
                ),
            ).build()
        val count = AtomicInteger()
        val channel = ServerBootstrap().group(group).channel(NioServerSocketChannel::class.java)
            .childHandler(object : ChannelInitializer<Channel>() {
                override fun initChannel(ch: Channel) {
                    accepted.incrementAndGet()
                    val answers = H2FailuresTest.Answers()
                    val listener = answers.listener { n, id -> answer(n, id, answers) }.also { it.count = count }
                    val handler = Http2ConnectionHandlerBuilder().server(true).frameListener(listener).build()
                    answers.handler = handler
                    ch.pipeline().addLast(ssl.newHandler(ch.alloc()), handler)
                }
            })
            .bind(InetAddress.getLoopbackAddress(), 0).sync().channel()
        return InetSocketAddress("127.0.0.1", (channel.localAddress() as InetSocketAddress).port)
    }

    private companion object {
        const val FRAME_HEADER = 9
    }
}
