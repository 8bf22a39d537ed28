package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.NoopEndpoints
import serverbench.client.Request

/**
 * Calibration: a handler that does nothing. Its req/s is the ceiling of stack + client on this machine, and its
 * `client.cpuPerReq` is what the client costs per request (compare with `wrk -t1 -c64` against `scripts/serve`).
 *
 * Run: `java -jar target/benchmarks.jar Noop -p server=netty -p concurrency=64`
 */
@State(Scope.Benchmark)
class NoopBenchmark : HttpBenchmark() {

    override fun request(variant: String) = Request("/noop/$variant", NoopEndpoints.HELLO)

    @Benchmark
    fun hello() = call()
}
