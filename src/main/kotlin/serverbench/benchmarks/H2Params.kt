package serverbench.benchmarks

import serverbench.fixture.ServerKind

/**
 * `-p protocol` and `-p streams` ([ProtocolParams]; docs/http2.md): whether the client speaks HTTP/2 to a server
 * that has it enabled through Spring Boot's own `server.http2.enabled`, and how the requests in flight map onto
 * connections. Checked with the launcher's own rules, for runs that bypass the launcher.
 */
internal object H2Params {
    const val PROTOCOL = "protocol"
    const val STREAMS = "streams"
    const val H1 = "h1"
    const val H2 = "h2"
    const val MAX_STREAMS = 1_000

    /** What Boot needs to serve HTTP/2 (h2 by ALPN over TLS, h2c without); nothing on HTTP/1.1, which stays as was. */
    fun properties(h2: Boolean): Map<String, Any> = if (h2) mapOf("server.http2.enabled" to "true") else emptyMap()

    /** Streams per connection for [protocol]: 0 on HTTP/1.1 (the client's own meaning); throws naming the parameter. */
    fun streams(kind: ServerKind, protocol: String, streams: String, concurrency: Int): Int {
        check(PROTOCOL, protocol)
        check(STREAMS, streams)
        if (protocol != H2) return 0
        val n = streams.toIntOrNull() ?: 1
        problem(kind.id, n, concurrency)?.let { throw IllegalArgumentException(it) }
        return n
    }

    /** Why [server] cannot run HTTP/2 with [streams] per connection at [concurrency], in one line; null if it can. */
    fun problem(server: String, streams: Int, concurrency: Int): String? = when {
        concurrency % streams != 0 ->
            "-p concurrency=$concurrency -p streams=$streams: with protocol=h2, concurrency (requests in flight) " +
                "must be a multiple of streams (per connection), e.g. concurrency=${streams * maxOf(
                    1,
                    concurrency / streams,
                )}"

        else -> UNSUPPORTED[server]
    }

    /** Stacks that cannot serve HTTP/2 in this jar, and why. */
    private val UNSUPPORTED = emptyMap<String, String>()

    /** "8 connections × 8 streams = 64 requests in flight, HTTP/2 (h2c, prior knowledge)"; HTTP/1.1: null. */
    fun describe(connections: Int, streams: Int, tls: Boolean): String? = if (streams == 0) {
        null
    } else {
        "${connections / streams} connections × $streams streams = $connections requests in flight, HTTP/2 " +
            if (tls) "(h2 by TLS ALPN)" else "(h2c, prior knowledge)"
    }

    private fun check(name: String, value: String) {
        val rule = ParamRules.rules.getValue(name)
        require(rule.accepts(value)) { "$name must be ${rule.allowed}, was '$value'" }
    }
}
