package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import org.springframework.boot.WebApplicationType
import serverbench.client.Request
import serverbench.fixture.ServerKind
import serverbench.params.ParamNames
import serverbench.params.ParamRules
import serverbench.params.ParamValues

/**
 * The JSON family: a POST of an order of about `bodyBytes` (`Content-Type: application/json`), decoded by Jackson into
 * a Kotlin data class and answered with a JSON summary computed from it (see [serverbench.app.JsonEndpoints] for where
 * each variant runs). The client sends one encoded request and checks each answer's status, `Content-Type` and exact
 * bytes ([OrderJson]); `bytes.inPerReq` / `bytes.outPerReq` report what crossed the wire per request.
 *
 * Run: `java -jar target/benchmarks.jar Json -p bodyBytes=1024,16384`
 */
@State(Scope.Benchmark)
class JsonBenchmark : TunableHttpBenchmark() {

    /** The order's size on the wire, in bytes: line items are added while it stays within this. */
    @Param("1024")
    var bodyBytes: Int = 0

    override fun request(variant: String): Request {
        ParamRules.requireValid(ParamNames.BODY_BYTES, bodyBytes.toString())
        return OrderJson.request("/json/$variant", bodyBytes)
    }

    override fun serverProperties(): Map<String, Any> {
        val only = javaClass.methods.firstOrNull { it.name == variant }?.getAnnotation(ReactiveOnly::class.java)
        val reactive = server == ParamValues.OTHER || ServerKind.of(server).webType == WebApplicationType.REACTIVE
        require(only == null || reactive) {
            "JsonBenchmark.$variant runs on reactive stacks only, not $server: ${only?.why}"
        }
        return super.serverProperties()
    }

    @Benchmark
    fun direct() = call()

    @Benchmark
    @ReactiveOnly(MONO_WHY)
    fun mono() = call()

    @Benchmark
    fun suspendFun() = call()

    @Benchmark
    fun withContextIO() = call()

    companion object {
        const val MONO_WHY = "a Mono<Order> request body is WebFlux's; Spring MVC has no reactive body parameter"
    }
}
