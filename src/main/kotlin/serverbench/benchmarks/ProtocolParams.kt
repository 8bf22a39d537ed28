package serverbench.benchmarks

import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.params.Knobs
import serverbench.params.ParamValues

/**
 * How the client talks to the server, in a base of [HttpBenchmark] of its own so that it stays one responsibility per
 * file: TLS (docs/tls.md), HTTP/1.1 or HTTP/2 (h2 over TLS by ALPN with `-p tls=true`, h2c by prior knowledge
 * without; docs/http2.md), with HTTP/2 the streams each connection keeps in flight, and how long a connection lives.
 */
@State(Scope.Benchmark)
abstract class ProtocolParams {
    /** HTTPS with a certificate the trial makes, the client on TLS 1.3 (docs/tls.md): `true` or `false`. */
    @Param("false")
    var tls: String = "false"

    /** Netty's TLS engine with `tls=true`: `default` (the JDK's), `jdk` or `openssl` (netty-tcnative). */
    @Param(Knobs.DEFAULT)
    var sslProvider: String = Knobs.DEFAULT

    /** Responses per connection before the client closes it and opens another (docs/tls.md): `unlimited` or N. */
    @Param(ParamValues.UNLIMITED_REQUESTS)
    var requestsPerConnection: String = ParamValues.UNLIMITED_REQUESTS

    /** `h1` (HTTP/1.1, one request in flight per connection) or `h2` (HTTP/2, `-p streams` per connection). */
    @Param(ParamValues.H1)
    var protocol: String = ParamValues.H1

    /**
     * With `protocol=h2`: requests in flight per connection; `-p concurrency` stays the requests in flight in all, so
     * the client opens concurrency ÷ streams connections. `n/a` on HTTP/1.1 runs (the launcher sets it).
     */
    @Param("1")
    var streams: String = "1"
}
