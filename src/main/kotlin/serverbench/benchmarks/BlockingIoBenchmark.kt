package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.BlockingIoEndpoints
import serverbench.client.Request

/**
 * The blocking-IO family: handlers that wait `delayMs` (a blocking call), handed to each stack the ways users write it
 * (see [BlockingIoEndpoints] for where each waits). What does blocking do to each stack, and which offloading helps?
 * `nonBlocking` waits without a thread: the lower bound (≈ concurrency / delay req/s unless CPU-bound).
 *
 * Run: `java -jar target/benchmarks.jar BlockingIo -p delayMs=100 -p concurrency=400`
 * Classic: `java -jar target/benchmarks.jar BlockingIoBenchmark.workerCompleted -p delayMs=100 -p concurrency=100
 *   -p tomcatMaxThreads=1 -p nettyIoWorkers=1` (one Tomcat thread vs one event loop, the wait delegated to a pool)
 */
@State(Scope.Benchmark)
class BlockingIoBenchmark : PooledHttpBenchmark() {

    @Param("10", "100", "500")
    var delayMs: Int = 0

    override fun request(variant: String) = Request("/blocking/$variant?ms=$delayMs", BlockingIoEndpoints.DONE)

    @Benchmark
    fun direct() = call()

    @Benchmark
    fun suspendBlocking() = call()

    @Benchmark
    fun withContextIO() = call()

    @Benchmark
    fun cfFixed() = call()

    @Benchmark
    fun cfCached() = call()

    @Benchmark
    @RequiresJdk(21, "virtual threads")
    fun cfVirtual() = call()

    @Benchmark
    fun workerCompleted() = call()

    @Benchmark
    fun boundedElastic() = call()

    @Benchmark
    fun largePool() = call()

    @Benchmark
    fun nonBlocking() = call()
}
