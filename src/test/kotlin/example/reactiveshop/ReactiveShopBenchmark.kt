package example.reactiveshop

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.benchmarks.HttpBenchmark
import serverbench.benchmarks.ServerApplication
import serverbench.client.Request

/** A benchmark of [ReactiveShopApplication]: its web type allows netty only. */
@State(Scope.Benchmark)
@ServerApplication(ReactiveShopApplication::class, config = "reactiveshop")
class ReactiveShopBenchmark : HttpBenchmark() {
    override fun request(variant: String) = Request("/shop/greeting", GREETING)

    @Benchmark
    fun greeting() = call()

    companion object {
        const val GREETING = "welcome to the reactive shop"
    }
}
