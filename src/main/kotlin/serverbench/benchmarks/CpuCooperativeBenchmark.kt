package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.sumPrimes
import serverbench.client.Request

/**
 * The CPU family's cooperative variant: a `suspend` handler that calls `yield()` every `batchSize` numbers, hoping to
 * let other requests through between batches. Compare with `CpuBenchmark.suspendFun` (the same work, no yields).
 *
 * Run: `java -jar target/benchmarks.jar CpuCooperative -p limit=100000 -p batchSize=1000`
 */
@State(Scope.Benchmark)
class CpuCooperativeBenchmark : HttpBenchmark() {

    @Param("100", "1000", "10000", "50000", "100000", "200000", "300000")
    var limit: Int = 0

    @Param("100", "1000", "10000", "100000")
    var batchSize: Int = 0

    override fun request(variant: String) =
        Request("/cpu/$variant?limit=$limit&batchSize=$batchSize", sumPrimes(limit).toString())

    @Benchmark
    fun cooperative() = call()
}
