package serverbench.benchmarks

import serverbench.app.NettySslProvider
import serverbench.fixture.ServerKind
import serverbench.params.Knobs
import serverbench.params.ParamNames
import serverbench.params.ParamRules
import serverbench.params.ParamValues

/**
 * `-p tls` and `-p sslProvider` (docs/tls.md): whether the server serves HTTPS with a certificate the trial makes and
 * the client speaks TLS 1.3 to it, and on Netty which TLS engine the server runs. Checked with the launcher's own
 * rules, for runs that bypass the launcher.
 */
internal object TlsParams {
    fun enabled(tls: String): Boolean {
        ParamRules.requireValid(ParamNames.TLS, tls)
        return tls == ParamValues.TRUE
    }

    /** The provider [sslProvider] names on [kind] with TLS on (`default` is JDK's); null where it does not apply. */
    fun provider(kind: ServerKind, tls: Boolean, sslProvider: String): String? {
        ParamRules.requireValid(Knobs.SSL_PROVIDER, sslProvider)
        if (!tls || kind != ServerKind.NETTY) return null
        return if (sslProvider == ParamValues.OPENSSL) ParamValues.OPENSSL else ParamValues.JDK
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
}
