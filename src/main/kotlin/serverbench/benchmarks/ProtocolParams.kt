package serverbench.benchmarks

import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State

/**
 * `-p protocol` and `-p streams` (docs/http2.md), in a base of [HttpBenchmark] of their own so that it stays one
 * responsibility per file: HTTP/1.1 or HTTP/2 (h2 over TLS by ALPN with `-p tls=true`, h2c by prior knowledge without),
 * and with HTTP/2 the streams each connection keeps in flight.
 */
@State(Scope.Benchmark)
abstract class ProtocolParams {
    /** `h1` (HTTP/1.1, one request in flight per connection) or `h2` (HTTP/2, `-p streams` per connection). */
    @Param(H2Params.H1)
    var protocol: String = H2Params.H1

    /**
     * With `protocol=h2`: requests in flight per connection; `-p concurrency` stays the requests in flight in all, so
     * the client opens concurrency ÷ streams connections. `n/a` on HTTP/1.1 runs (the launcher sets it).
     */
    @Param("1")
    var streams: String = "1"
}
