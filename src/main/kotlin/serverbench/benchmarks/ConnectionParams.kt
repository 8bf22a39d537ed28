package serverbench.benchmarks

import serverbench.client.ClientSettings
import serverbench.client.TlsHandshakes
import serverbench.params.ParamNames
import serverbench.params.ParamRules

/**
 * `-p requestsPerConnection` (docs/tls.md, "Handshakes"): how many responses the client reads on a connection before it
 * closes it and opens another, so that a run measures connections and TLS handshakes per second on purpose.
 * `unlimited` (the default) keeps each connection as long as the server does, as before the knob existed.
 */
internal object ConnectionParams {
    /** [settings] with [value] applied (0 for unlimited); checked with the launcher's rule, for runs without it. */
    fun settings(settings: ClientSettings, value: String): ClientSettings {
        ParamRules.requireValid(ParamNames.REQUESTS_PER_CONNECTION, value)
        return settings.copy(requestsPerConnection = value.toIntOrNull() ?: 0)
    }

    /** The setup line's part: ", a new connection every 10 responses (...), TLS session resumption on"; or "". */
    fun describe(settings: ClientSettings): String {
        val requests = settings.requestsPerConnection
        val parts = listOfNotNull(
            "a new connection every $requests responses (-p ${ParamNames.REQUESTS_PER_CONNECTION})".takeIf {
                requests >
                    0
            },
            when {
                settings.tls == null -> null
                TlsHandshakes.resumption() -> "TLS session resumption on"
                else -> "TLS session resumption off (-D${TlsHandshakes.RESUMPTION_PROPERTY}=false): full handshakes"
            },
        )
        return if (parts.isEmpty()) "" else parts.joinToString(", ", prefix = ", ")
    }
}
