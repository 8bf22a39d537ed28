package example.orders

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.benchmarks.HttpBenchmark
import serverbench.benchmarks.ServerEndpoints
import serverbench.client.Expect
import serverbench.client.Method
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
        "putOrder" -> Request(
            "/orders/{{seq}}", // {{seq}}: 1, 2, 3, ... one number per request, the same in the path and the body
            "the order as stored, with a revision id and a time",
            method = Method.PUT,
            bodyTemplate = """{"sku":"SKU-{{seq}}","quantity":2}""",
            expect = Expect.status(200).contentType(Request.JSON)
                .json("/id", Expect.integer())
                .json("/sku", Expect.matches("SKU-\\d+"))
                .json("/quantity", Expect.value(2))
                .json("/revision", Expect.matches("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}"))
                .json("/updatedAt", Expect.matches("\\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z")),
        )

        else -> error("no request for $variant")
    }

    @Benchmark
    fun putOrder() = call()
}
