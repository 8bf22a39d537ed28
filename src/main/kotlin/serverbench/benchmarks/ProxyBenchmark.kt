package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.Downstream
import serverbench.client.LoadFailure
import serverbench.client.LoadGroup
import serverbench.client.Request
import serverbench.fixture.DownstreamStub

/**
 * The proxy family: each request makes the server call an in-process downstream stub (its own port and event loop)
 * that answers after `delayMs` without holding a thread, with one of the HTTP clients users pick (see
 * [serverbench.app.ProxyEndpoints]). Which client, on which stack, when the downstream is slow?
 *
 * Every proxied request must reach the stub exactly once: per iteration, the stub's new hits and the client's new
 * responses may differ only by the requests in flight at the iteration's two edges (at most `concurrency`); after the
 * last measurement iteration the client stops sending and drains, and the totals must then be equal.
 *
 * Run: `java -jar target/benchmarks.jar Proxy -p delayMs=100 -p concurrency=400`
 * Classic: `java -jar target/benchmarks.jar ProxyBenchmark.restClient -p server=tomcat -p delayMs=1000
 *   -p concurrency=400` (200 Tomcat threads, each held 1 s: 200 req/s)
 */
@State(Scope.Benchmark)
class ProxyBenchmark : TunableHttpBenchmark() {

    @Param("10", "100", "500")
    var delayMs: Int = 0

    private var stub: DownstreamStub? = null
    private var hitsAtStart = 0L
    private var responsesAtStart = 0L

    override fun request(variant: String) = Request("/proxy/$variant?ms=$delayMs", DownstreamStub.BODY)

    /** Client and server ends, plus the proxy's connection to the stub and the stub's end of it. */
    override val descriptorsPerConnection = 4

    override val inProcessOnly = "its downstream stub runs in the benchmark's JVM, which counts every request it serves"

    override fun startDependencies(): Map<String, Any> {
        val stub = DownstreamStub.start().also { this.stub = it }
        return mapOf(Downstream.URL_PROPERTY to stub.url)
    }

    override fun stopDependencies() {
        stub?.close()
        stub = null
    }

    override fun iterationStarted(client: LoadGroup) {
        hitsAtStart = stub!!.hitCount
        responsesAtStart = client.responses
    }

    override fun iterationEnded(client: LoadGroup, lastMeasurement: Boolean) {
        val stub = stub!!
        val hits = stub.hitCount - hitsAtStart
        val responses = client.responses - responsesAtStart
        if (kotlin.math.abs(hits - responses) > client.connections) {
            throw LoadFailure(
                "the downstream stub got $hits requests in this iteration but the client got $responses " +
                    "responses; with ${client.connections} connections they may differ by at most " +
                    "${client.connections}",
            )
        }
        if (lastMeasurement) {
            // Requests the drain could not wait out (netty loops blocked by 500 ms calls serve 100 connections each in
            // turn) may have reached the stub already: each may account for one hit, no more.
            // The warmup's light load for a starved compiler sent its own requests, counted apart.
            val light = warmupLight
            val unanswered = client.drain() + (light?.unanswered ?: 0)
            val responses = client.responses + (light?.responses ?: 0)
            val expected = responses + 1 // the setup's validated request
            if (stub.hitCount !in expected..expected + unanswered) {
                throw LoadFailure(
                    "the downstream stub got ${stub.hitCount} requests in total but the client got " +
                        "$responses responses (+1 setup probe" +
                        (if (unanswered > 0) ", and $unanswered requests still in flight" else "") +
                        "): every proxied request must reach the stub exactly once",
                )
            }
        }
    }

    @Benchmark
    fun jdkBlocking() = call()

    @Benchmark
    fun jdkAsync() = call()

    @Benchmark
    fun apacheAsync() = call()

    @Benchmark
    fun restClient() = call()

    @Benchmark
    fun webClient() = call()

    @Benchmark
    fun webClientSuspend() = call()
}
