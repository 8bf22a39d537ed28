package example.orders

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.benchmarks.HttpBenchmark
import serverbench.benchmarks.ServerEndpoints
import serverbench.client.Request

/**
 * The example of docs/your-own-benchmark.md: the benchmark of [OrderController], which [ServerEndpoints] adds to the
 * server of each stack. Run: `java -jar target/benchmarks.jar OrdersBenchmark -p server=tomcat,jetty,netty`.
 */
@State(Scope.Benchmark)
@ServerEndpoints(OrderController::class)
class OrdersBenchmark : HttpBenchmark() {

    /** What each `@Benchmark` method (its name is [variant]) sends, and the answer it must get back. */
    override fun request(variant: String) = when (variant) {
        "getOrder" -> Request("/orders/42", """{"id":42,"status":"open"}""")
        else -> error("no request for $variant")
    }

    @Benchmark
    fun getOrder() = call()
}
