package serverbench.benchmarks

import serverbench.params.ParamNames
import serverbench.params.ParamRules
import serverbench.params.ProtocolRules

/**
 * `-p protocol` and `-p streams` ([ProtocolParams]; docs/http2.md): whether the client speaks HTTP/2 to a server
 * that has it enabled through Spring Boot's own `server.http2.enabled`, and how the requests in flight map onto
 * connections. Checked with the launcher's own rules, for runs that bypass the launcher.
 */
internal object H2Params {
    /** What Boot needs to serve HTTP/2 (h2 by ALPN over TLS, h2c without); nothing on HTTP/1.1, which stays as was. */
    fun properties(h2: Boolean): Map<String, Any> = if (h2) mapOf("server.http2.enabled" to "true") else emptyMap()

    /**
     * Streams per connection the run with [params] asks for: 0 on HTTP/1.1 (the client's own meaning); throws naming
     * the parameter, in the launcher's words, for runs that bypass it.
     */
    fun streams(params: Map<String, String>): Int {
        for (name in listOf(ParamNames.PROTOCOL, ParamNames.STREAMS, ParamNames.REQUESTS_PER_CONNECTION)) {
            params[name]?.let { ParamRules.requireValid(name, it) }
        }
        ProtocolRules.problem(params)?.let { throw IllegalArgumentException(it) }
        return ProtocolRules.streams(params)
    }

    /** "8 connections × 8 streams = 64 requests in flight, HTTP/2 (h2c, prior knowledge)"; HTTP/1.1: null. */
    fun describe(connections: Int, streams: Int, tls: Boolean): String? = if (streams == 0) {
        null
    } else {
        "${connections / streams} connections × $streams streams = $connections requests in flight, HTTP/2 " +
            if (tls) "(h2 by TLS ALPN)" else "(h2c, prior knowledge)"
    }
}
