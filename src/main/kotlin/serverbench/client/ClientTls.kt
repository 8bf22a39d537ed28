package serverbench.client

import io.netty.handler.ssl.ApplicationProtocolConfig
import io.netty.handler.ssl.ApplicationProtocolNames
import io.netty.handler.ssl.SslContext
import io.netty.handler.ssl.SslContextBuilder
import io.netty.handler.ssl.SslProvider
import io.netty.handler.ssl.util.InsecureTrustManagerFactory
import java.security.KeyStore
import java.security.cert.X509Certificate
import javax.net.ssl.TrustManagerFactory

/**
 * The load client's TLS (`-p tls=true`): TLS 1.3 only, through the JDK's JSSE whatever the server uses, so that the
 * client's own cost is the same for every stack and provider compared. One context per trial: each connection's
 * handler comes from [SslContext.newHandler] with the server's host and port, so a reconnect (Tomcat's close every
 * 100th response, or `-p requestsPerConnection`) resumes the session from the context's client session cache, as a
 * browser or an HTTP client library does; the first connections make full handshakes. [TlsHandshakes] counts which.
 */
object ClientTls {
    const val PROTOCOL = "TLSv1.3"

    /** A client that trusts [certificate] alone and checks that it names the host it connects to. */
    fun trusting(certificate: X509Certificate, h2: Boolean = false): SslContext = SslContextBuilder.forClient()
        .sslProvider(SslProvider.JDK)
        .protocols(PROTOCOL)
        .trustManager(TlsHandshakes.counting(factory(certificate)))
        .alpn(h2)
        .build()

    /**
     * A client for a served target (`-Dserverbench.target`), whose certificate only that process knows: it accepts
     * whatever certificate the server presents (as `wrk` does); the handshake and the encryption are the same.
     */
    fun trustingAny(h2: Boolean = false): SslContext = SslContextBuilder.forClient()
        .sslProvider(SslProvider.JDK)
        .protocols(PROTOCOL)
        .trustManager(TlsHandshakes.counting(InsecureTrustManagerFactory.INSTANCE))
        .endpointIdentificationAlgorithm(null)
        .alpn(h2)
        .build()

    /** What `.trustManager(certificate)` would make: trusts [certificate] alone (wrapped to count handshakes). */
    private fun factory(certificate: X509Certificate): TrustManagerFactory {
        val store = KeyStore.getInstance(KeyStore.getDefaultType()).apply {
            load(null, null)
            setCertificateEntry("server", certificate)
        }
        return TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm()).apply { init(store) }
    }

    /**
     * `-p protocol=h2`: offers h2 alone by ALPN, so a server that would answer in HTTP/1.1 says so in the handshake
     * ([H2Connection] refuses anything else it chose).
     */
    private fun SslContextBuilder.alpn(h2: Boolean): SslContextBuilder = if (!h2) {
        this
    } else {
        applicationProtocolConfig(
            ApplicationProtocolConfig(
                ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                ApplicationProtocolNames.HTTP_2,
            ),
        )
    }
}
