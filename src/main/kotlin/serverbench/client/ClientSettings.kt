package serverbench.client

import io.netty.handler.ssl.SslContext
import java.time.Duration

/**
 * Client knobs that are not benchmark parameters (they would add a column to every result table): a user sets them as
 * system properties, e.g. `java -Dserverbench.maxErrors=10 -jar target/benchmarks.jar ...`; the launcher forwards
 * every `serverbench.*` property to the forked JVMs.
 */
data class ClientSettings(
    /** A request without a complete response after this long is a timeout failure (and its connection is replaced). */
    val timeout: Duration = Duration.ofSeconds(30),
    /** Failed requests a trial tolerates before the benchmark fails; 0 = the first failure fails it. */
    val maxErrors: Long = 0,
    val connectTimeout: Duration = Duration.ofSeconds(10),
    /** `-p tls=true`: every connection speaks TLS through this context ([ClientTls]); null: plain HTTP. */
    val tls: SslContext? = null,
    /**
     * `-p requestsPerConnection`: the client closes each connection after this many responses and opens a new one
     * (its connect and handshake in the next request's latency); 0 = as many as the server allows (keep-alive).
     */
    val requestsPerConnection: Int = 0,
    /** `-p protocol=h2`: streams in flight per HTTP/2 connection ([H2Connection]); 0: HTTP/1.1. */
    val http2Streams: Int = 0,
) {
    init {
        require(requestsPerConnection >= 0) { "requestsPerConnection must be >= 0, was $requestsPerConnection" }
        require(!timeout.isNegative && !timeout.isZero) { "timeout must be positive, was $timeout" }
        require(maxErrors >= 0) { "maxErrors must be >= 0, was $maxErrors" }
        require(http2Streams >= 0) { "http2Streams must be >= 0, was $http2Streams" }
    }

    companion object {
        const val TIMEOUT_PROPERTY = "serverbench.timeoutMs"
        const val MAX_ERRORS_PROPERTY = "serverbench.maxErrors"

        fun fromSystemProperties(): ClientSettings = ClientSettings(
            timeout = Duration.ofMillis(Properties.long(TIMEOUT_PROPERTY, min = 1) ?: 30_000),
            maxErrors = Properties.long(MAX_ERRORS_PROPERTY, min = 0) ?: 0,
        ).also { TlsHandshakes.resumption() } // a bad -Dserverbench.tlsResumption fails here, before anything starts
    }
}
