package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.BlockingIoEndpoints
import serverbench.client.Request

/**
 * The `CompletableFuture` family: a service's "expensive worker" (a blocking call of `workMs`) called synchronously, or
 * offloaded and returned as a `CompletableFuture` (see [serverbench.app.CompletableFutureEndpoints]). Does offloading
 * to Boot's default executor (8 threads), the common pool or a fixed pool help, with many clients?
 *
 * Run: `java -jar target/benchmarks.jar CompletableFuture -p concurrency=1000` (the classic `ab -c 1000` study)
 */
@State(Scope.Benchmark)
class CompletableFutureBenchmark : PooledHttpBenchmark() {

    @Param("100")
    var workMs: Int = 0

    override fun request(variant: String) = Request("/cf/$variant?ms=$workMs", BlockingIoEndpoints.DONE)

    @Benchmark
    fun sync() = call()

    @Benchmark
    fun applicationTaskExecutor() = call()

    @Benchmark
    fun commonPool() = call()

    @Benchmark
    fun fixedPool() = call()
}
