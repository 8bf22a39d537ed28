package serverbench.report

import serverbench.params.ParamNames

/**
 * Whether a set of rows ran over HTTPS (`-p tls`, docs/tls.md) and on which HTTP (`-p protocol`, docs/http2.md), for
 * the conditions and the tables to say so.
 */
internal object TlsCondition {
    private const val TLS = ParamNames.TLS
    private const val PROTOCOL = ParamNames.PROTOCOL

    /** Every row with `tls=true`: their table says it once, in place of a column of `true`. */
    const val HTTPS = "Over HTTPS: `tls=true`, the client on TLS 1.3, the trial's self-signed certificate"

    /** Every row with `protocol=h2`: their table says it once. */
    const val HTTP2 = "HTTP/2: `protocol=h2`, concurrency = connections × `streams` requests in flight (h2 by ALPN " +
        "over TLS, h2c by prior knowledge without)"

    /**
     * The findings' condition when every row shares one value of `tls` (and of `protocol`); null when TLS varies. A row
     * without a parameter ran plain HTTP/1.1: `tls=false` and `protocol=h1` are dropped on reading ([Results]), and
     * older results predate both.
     */
    fun of(runs: List<BenchmarkResult>): String? {
        val tls = runs.map { it.params[TLS] ?: "false" }.distinct().singleOrNull()
        val protocol = when (runs.map { it.params[PROTOCOL] ?: "h1" }.distinct().singleOrNull()) {
            "h1" -> "HTTP/1.1"
            "h2" -> if (tls == "true") "HTTP/2 (h2 by ALPN)" else "HTTP/2 (h2c, prior knowledge)"
            else -> "HTTP/1.1 and HTTP/2 (see protocol)"
        }
        return when (tls) {
            "true" -> "over HTTPS (tls=true: TLS 1.3), $protocol"
            "false" -> "plain HTTP (tls=false), $protocol"
            else -> null
        }
    }

    /** What a table says once above its rows: HTTPS and HTTP/2 where all of them ran so; "" otherwise. */
    fun tableHeader(runs: List<BenchmarkResult>): String =
        (if (allHttps(runs)) "$HTTPS.\n\n" else "") + (if (allHttp2(runs)) "$HTTP2.\n\n" else "")

    fun allHttps(runs: List<BenchmarkResult>): Boolean = runs.isNotEmpty() && runs.all { it.params[TLS] == "true" }

    fun allHttp2(runs: List<BenchmarkResult>): Boolean = runs.isNotEmpty() && runs.all { it.params[PROTOCOL] == "h2" }
}
