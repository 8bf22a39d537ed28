package example.shop

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.benchmarks.HttpBenchmark
import serverbench.benchmarks.ServerApplication
import serverbench.client.Request

/** A benchmark of [ShopApplication], the fixture starting it instead of the built-in application. */
@State(Scope.Benchmark)
@ServerApplication(ShopApplication::class, config = "shop")
class ShopBenchmark : HttpBenchmark() {
    override fun request(variant: String) = Request("/shop/greeting", GREETING)

    @Benchmark
    fun greeting() = call()

    companion object {
        /** What shop.properties sets: seen in the answer, the application's own configuration was read. */
        const val GREETING = "welcome to the shop"
    }
}
