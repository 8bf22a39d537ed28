package serverbench.client

import io.netty.buffer.ByteBufAllocator
import io.netty.handler.ssl.ResumableX509ExtendedTrustManager
import io.netty.handler.ssl.SslContext
import io.netty.handler.ssl.SslHandler
import java.net.InetSocketAddress
import java.net.Socket
import java.security.cert.X509Certificate
import javax.net.ssl.SSLEngine
import javax.net.ssl.SSLSession
import javax.net.ssl.TrustManager
import javax.net.ssl.TrustManagerFactory
import javax.net.ssl.X509ExtendedTrustManager
import javax.net.ssl.X509TrustManager

/**
 * Whether each TLS handshake of the load client was full or resumed, and whether the client may resume at all.
 *
 * JSSE has no `isResumed()`. The signal used is the server's certificate: a full handshake carries it and the client's
 * trust manager checks it; a TLS 1.3 resumption (the server's NewSessionTicket, the client's PSK) carries none, and
 * Netty then calls [ResumableX509ExtendedTrustManager.resumeServerTrusted] instead. [Counting] marks the session
 * either way; [kind] reads the mark when the handshake completes. The client runs on JSSE whatever the server's engine,
 * so the same signal holds against JSSE and OpenSSL servers (TlsHandshakesTest).
 */
object TlsHandshakes {
    /** `-Dserverbench.tlsResumption=false`: every handshake full (to compare full and resumed handshake cost). */
    const val RESUMPTION_PROPERTY = "serverbench.tlsResumption"

    private const val FULL = "serverbench.tls.full"
    private const val RESUMED = "serverbench.tls.resumed"

    enum class Kind { FULL, RESUMED, UNKNOWN }

    /** Read at each connection: the property may differ between the runs of one JVM (tests). */
    fun resumption(): Boolean = when (val v = System.getProperty(RESUMPTION_PROPERTY, "true")) {
        "true" -> true
        "false" -> false
        else -> throw IllegalArgumentException("$RESUMPTION_PROPERTY must be true or false, was '$v'")
    }

    /**
     * The TLS handler of the connection in [slot]. With resumption (the default) its engine gets the server's host and
     * a session-reuse key, the peer port that JSSE's client session cache is keyed by (the engine's peer port is only
     * that hint, unauthenticated; the socket goes to [address]): the server's port for slot 0, 65536 + slot for the
     * others (a context serves one server). So each slot's reconnect offers the ticket the server sent on that slot's
     * previous connection, as separate clients, one per slot, would. One shared key would not do: JDK 17's client keeps
     * one ticket per host and port, and with many connections reconnecting at once almost none resumes (docs/tls.md).
     * Without resumption the key is left out (-1): JSSE then neither stores a session under a key nor looks one up, so
     * every handshake is full; the host is still there for the certificate's check.
     */
    fun handler(context: SslContext, alloc: ByteBufAllocator, address: InetSocketAddress, slot: Int): SslHandler {
        val key = if (!resumption()) {
            -1
        } else if (slot == 0) {
            address.port
        } else {
            PORTS + slot
        }
        return context.newHandler(alloc, address.hostString, key)
    }

    private const val PORTS = 65536

    /** How the handshake that produced [session] went (read when it completed). */
    fun kind(session: SSLSession): Kind = when {
        session.getValue(RESUMED) != null -> Kind.RESUMED
        session.getValue(FULL) != null -> Kind.FULL
        else -> Kind.UNKNOWN
    }

    /** [factory]'s trust manager, marking each session it checks (full) or that Netty says was resumed. */
    fun counting(factory: TrustManagerFactory): TrustManager =
        Counting(factory.trustManagers.filterIsInstance<X509TrustManager>().single())

    private class Counting(private val plain: X509TrustManager) :
        X509ExtendedTrustManager(),
        ResumableX509ExtendedTrustManager {
        private val delegate = plain as? X509ExtendedTrustManager

        override fun checkServerTrusted(chain: Array<X509Certificate>, authType: String, engine: SSLEngine) {
            delegate?.checkServerTrusted(chain, authType, engine) ?: plain.checkServerTrusted(chain, authType)
            (engine.handshakeSession ?: engine.session)?.putValue(FULL, true)
        }

        override fun resumeServerTrusted(chain: Array<X509Certificate>, engine: SSLEngine) {
            engine.session?.putValue(RESUMED, true)
        }

        override fun resumeClientTrusted(chain: Array<X509Certificate>, engine: SSLEngine) =
            throw UnsupportedOperationException("a client trust manager")

        // The client uses engines only; the others are the interface's, passed on as they are.
        override fun checkServerTrusted(chain: Array<X509Certificate>, authType: String, socket: Socket) =
            delegate?.checkServerTrusted(chain, authType, socket) ?: plain.checkServerTrusted(chain, authType)

        override fun checkServerTrusted(chain: Array<X509Certificate>, authType: String) =
            plain.checkServerTrusted(chain, authType)

        override fun checkClientTrusted(chain: Array<X509Certificate>, authType: String, engine: SSLEngine) =
            plain.checkClientTrusted(chain, authType)

        override fun checkClientTrusted(chain: Array<X509Certificate>, authType: String, socket: Socket) =
            plain.checkClientTrusted(chain, authType)

        override fun checkClientTrusted(chain: Array<X509Certificate>, authType: String) =
            plain.checkClientTrusted(chain, authType)

        override fun getAcceptedIssuers(): Array<X509Certificate> = plain.acceptedIssuers
    }
}
