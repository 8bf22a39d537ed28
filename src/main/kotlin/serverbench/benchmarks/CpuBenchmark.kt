package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.sumPrimes
import serverbench.client.Request

/**
 * The CPU family: the same trial-division primes work (up to `limit`) run on the request thread, in a `suspend`
 * handler, on `Dispatchers.Default`, on a fixed pool via `CompletableFuture`, or on `Schedulers.parallel()`
 * (see [serverbench.app.CpuEndpoints] for where each runs). Does offloading CPU work help either stack?
 *
 * Run: `java -jar target/benchmarks.jar Cpu -p server=netty -p limit=10000 -p concurrency=64`
 */
@State(Scope.Benchmark)
class CpuBenchmark : HttpBenchmark() {

    @Param("100", "1000", "10000", "50000", "100000", "200000", "300000")
    var limit: Int = 0

    override fun request(variant: String) = Request("/cpu/$variant?limit=$limit", sumPrimes(limit).toString())

    @Benchmark
    fun direct() = call()

    @Benchmark
    fun suspendFun() = call()

    @Benchmark
    fun withContextDefault() = call()

    @Benchmark
    fun completableFuture() = call()

    @Benchmark
    fun monoParallel() = call()
}
