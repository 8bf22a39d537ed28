package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.NoopEndpoints
import serverbench.client.Request

/**
 * Calibration of the latency figures: an ideal server that answers after exactly `delayMs` without holding a thread.
 * Expect `latency.p50` just above `delayMs`, and req/s ≈ concurrency / delay (Little's law); anything else is the
 * harness or the machine, not the stack.
 *
 * Run: `java -jar target/benchmarks.jar Delay -p concurrency=8 -p delayMs=100`
 */
@State(Scope.Benchmark)
class DelayBenchmark : HttpBenchmark() {

    @Param("100")
    var delayMs: Int = 0

    override fun request(variant: String) = Request("/noop/$variant?ms=$delayMs", NoopEndpoints.DELAYED)

    @Benchmark
    fun delay() = call()
}
