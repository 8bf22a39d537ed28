package serverbench.params

import serverbench.params.ParamNames as N

/**
 * Which protocol parameters go together (`-p protocol`, `-p streams`, `-p requestsPerConnection`, `-p concurrency`;
 * docs/http2.md, docs/tls.md): one function that the launcher asks for every planned run and the fork for its own, so
 * both refuse in the same words. Each value is already within its own [ParamRules] rule.
 */
object ProtocolRules {
    /** Stacks that cannot serve HTTP/2 in this jar, and why. */
    private val UNSUPPORTED = emptyMap<String, String>()

    /** Streams per connection a run with [params] asks for: 0 on HTTP/1.1 (the client's own meaning). */
    fun streams(params: Map<String, String>): Int =
        if (params[N.PROTOCOL] == ParamValues.H2) params[N.STREAMS]?.toIntOrNull() ?: 1 else 0

    /** Why the run with [params] cannot go as asked, in one line; null if it can. */
    fun problem(params: Map<String, String>): String? {
        val streams = streams(params).takeIf { it > 0 } ?: return null
        val concurrency = params[N.CONCURRENCY]?.toIntOrNull() ?: return null
        if (concurrency % streams != 0) {
            return "-p ${N.CONCURRENCY}=$concurrency -p ${N.STREAMS}=$streams: with ${N.PROTOCOL}=${ParamValues.H2}, " +
                "${N.CONCURRENCY} (requests in flight) must be a multiple of ${N.STREAMS} (per connection), e.g. " +
                "${N.CONCURRENCY}=${streams * maxOf(1, concurrency / streams)}"
        }
        UNSUPPORTED[params[N.SERVER]]?.let { return it }
        val requests = params[N.REQUESTS_PER_CONNECTION]?.takeIf { it != ParamValues.UNLIMITED_REQUESTS } ?: return null
        return "-p ${N.REQUESTS_PER_CONNECTION}=$requests: HTTP/1.1 only (${N.PROTOCOL}=${ParamValues.H1}): an " +
            "HTTP/2 connection's streams are not closed one by one; leave it at ${ParamValues.UNLIMITED_REQUESTS} " +
            "with ${N.PROTOCOL}=${ParamValues.H2}"
    }
}
