package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.FaultEndpoints
import serverbench.client.ClientSettings
import serverbench.client.Request
import java.time.Duration

/**
 * Benchmarks that must FAIL: each hits a misbehaving endpoint, so a user can see how the harness reports a failure
 * (one line with the counts by kind and the first error; nothing counted as throughput; exit status 1 with -foe true).
 * The launcher leaves them out unless a pattern names them.
 *
 * Run: `java -jar target/benchmarks.jar SelfCheckBenchmark.failAfter -p server=netty -foe true`
 */
@State(Scope.Benchmark)
class SelfCheckBenchmark : HttpBenchmark() {

    /** For `failAfter`: how long the endpoint answers correctly before it starts failing. */
    @Param("1000")
    var failAfterMs: Long = 0

    override fun request(variant: String) = when (variant) {
        "status500" -> Request("/fault/status?code=500", FaultEndpoints.OK)
        "wrongBody" -> Request("/noop/hello", "not what the server says")
        "failAfter" -> Request("/fault/failAfter?ms=$failAfterMs", FaultEndpoints.OK)
        "hang" -> Request("/fault/hang", FaultEndpoints.OK)
        else -> unknown(variant)
    }

    /** A 2 s timeout (unless -Dserverbench.timeoutMs says otherwise), so `hang` fails quickly. */
    override fun clientSettings(): ClientSettings {
        val settings = ClientSettings.fromSystemProperties()
        return if (System.getProperty(ClientSettings.TIMEOUT_PROPERTY) == null) settings.copy(timeout = Duration.ofSeconds(2)) else settings
    }

    @Benchmark
    fun status500() = call()

    @Benchmark
    fun wrongBody() = call()

    @Benchmark
    fun failAfter() = call()

    @Benchmark
    fun hang() = call()
}
