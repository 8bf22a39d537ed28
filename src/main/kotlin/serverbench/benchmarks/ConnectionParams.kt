package serverbench.benchmarks

import serverbench.client.ClientSettings
import serverbench.client.TlsHandshakes

/**
 * `-p requestsPerConnection` (docs/tls.md, "Handshakes"): how many responses the client reads on a connection before it
 * closes it and opens another, so that a run measures connections and TLS handshakes per second on purpose.
 * `unlimited` (the default) keeps each connection as long as the server does, as before the knob existed.
 */
internal object ConnectionParams {
    const val REQUESTS_PER_CONNECTION = "requestsPerConnection"
    const val UNLIMITED = "unlimited"
    private const val MAX = 1_000_000

    val rule = ParamRules.Rule("'$UNLIMITED' or an integer from 1 to $MAX") { v ->
        v == UNLIMITED || v.toIntOrNull()?.let { it in 1..MAX } == true
    }

    /** [settings] with [value] applied (0 for [UNLIMITED]); checked with the launcher's rule, for runs without it. */
    fun settings(settings: ClientSettings, value: String): ClientSettings {
        require(rule.accepts(value)) { "$REQUESTS_PER_CONNECTION must be ${rule.allowed}, was '$value'" }
        require(value == UNLIMITED || settings.http2Streams == 0) { h2Problem(value) }
        return settings.copy(requestsPerConnection = value.toIntOrNull() ?: 0)
    }

    /** Why [value] cannot go with `protocol=h2`, in one line. */
    fun h2Problem(value: String) = "-p $REQUESTS_PER_CONNECTION=$value: HTTP/1.1 only (protocol=h1): an HTTP/2 " +
        "connection's streams are not closed one by one; leave it at $UNLIMITED with protocol=h2"

    /** The setup line's part: ", a new connection every 10 responses (...), TLS session resumption on"; or "". */
    fun describe(settings: ClientSettings): String {
        val requests = settings.requestsPerConnection
        val parts = listOfNotNull(
            "a new connection every $requests responses (-p $REQUESTS_PER_CONNECTION)".takeIf { requests > 0 },
            when {
                settings.tls == null -> null
                TlsHandshakes.resumption() -> "TLS session resumption on"
                else -> "TLS session resumption off (-D${TlsHandshakes.RESUMPTION_PROPERTY}=false): full handshakes"
            },
        )
        return if (parts.isEmpty()) "" else parts.joinToString(", ", prefix = ", ")
    }
}
