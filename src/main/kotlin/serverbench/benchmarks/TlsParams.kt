package serverbench.benchmarks

import serverbench.app.NettySslProvider
import serverbench.fixture.ServerKind

/**
 * `-p tls` and `-p sslProvider` (docs/tls.md): whether the server serves HTTPS with a certificate the trial makes and
 * the client speaks TLS 1.3 to it, and on Netty which TLS engine the server runs. Checked with the launcher's own
 * rules, for runs that bypass the launcher.
 */
internal object TlsParams {
    const val TLS = "tls"
    const val SSL_PROVIDER = Knobs.SSL_PROVIDER
    const val JDK = "jdk"
    const val OPENSSL = "openssl"

    fun enabled(tls: String): Boolean {
        check(TLS, tls)
        return tls == "true"
    }

    /** The provider [sslProvider] names on [kind] with TLS on (`default` is JDK's); null where it does not apply. */
    fun provider(kind: ServerKind, tls: Boolean, sslProvider: String): String? {
        check(SSL_PROVIDER, sslProvider)
        if (!tls || kind != ServerKind.NETTY) return null
        return if (sslProvider == OPENSSL) OPENSSL else JDK
    }

    /** The Spring property that puts a server in this JVM on [provider]. */
    fun properties(provider: String?): Map<String, Any> =
        provider?.let { mapOf(NettySslProvider.PROPERTY to it) } ?: emptyMap()

    /** The setup line's "over TLSv1.3 TLS_AES_256_GCM_SHA384, server engine JDK (JSSE)" part; "" without TLS. */
    fun describe(session: String?, provider: String?): String = when {
        session == null -> ""
        provider == null -> " over $session"
        else -> " over $session, server engine ${NettySslProvider.describe(provider)}"
    }

    private fun check(name: String, value: String) {
        val rule = ParamRules.rules.getValue(name)
        require(rule.accepts(value)) { "$name must be ${rule.allowed}, was '$value'" }
    }
}
