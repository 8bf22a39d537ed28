package serverbench.benchmarks

import org.openjdk.jmh.annotations.Benchmark
import org.openjdk.jmh.annotations.Level
import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import org.openjdk.jmh.annotations.TearDown
import serverbench.app.FaultEndpoints
import serverbench.app.NoopEndpoints
import serverbench.client.ClientSettings
import serverbench.client.LoadGroup
import serverbench.client.Request
import java.net.InetAddress
import java.net.ServerSocket
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

    /** For `failAfter` and `dieAfter`: how long the endpoint answers correctly before it starts failing. */
    @Param("1000")
    var failAfterMs: Long = 0

    override fun request(variant: String) = when (variant) {
        "status500" -> Request("/fault/status?code=500", FaultEndpoints.OK)
        "wrongBody" -> Request("/noop/hello", "not what the server says")
        "jsonWrongBody" -> OrderJson.request("/fault/jsonWrongTotal", OrderJson.MIN_BYTES * 2)
        "failAfter" -> Request("/fault/failAfter?ms=$failAfterMs", FaultEndpoints.OK)
        "hang" -> Request("/fault/hang", FaultEndpoints.OK)
        "status503" -> Request("/fault/status?code=503", FaultEndpoints.OK)
        "truncated" -> Request("/fault/truncated", FaultEndpoints.OK)
        "dieAfter" -> Request("/fault/dieAfter?ms=$failAfterMs", FaultEndpoints.OK)
        "startFailure" -> Request("/noop/hello", NoopEndpoints.HELLO)
        "failWhileDraining" -> Request("/fault/late", FaultEndpoints.OK)
        else -> error("Unknown variant '$variant' in SelfCheckBenchmark")
    }

    /** Held for `startFailure`: the port its server is told to bind, already taken. */
    private var occupied: ServerSocket? = null

    override val inProcessOnly = "its checks provoke failures in a server it starts itself"

    override fun serverProperties(): Map<String, Any> {
        if (variant != "startFailure") return emptyMap()
        val socket = ServerSocket(0, 1, InetAddress.getLoopbackAddress()).also { occupied = it }
        return mapOf("server.port" to socket.localPort)
    }

    override fun iterationStarted(client: LoadGroup) {
        FaultEndpoints.failLate = false
    }

    override fun iterationEnded(client: LoadGroup, lastMeasurement: Boolean) {
        if (variant == "failWhileDraining" && lastMeasurement) FaultEndpoints.failLate = true
    }

    @TearDown(Level.Trial)
    fun releasePort() {
        occupied?.close()
        occupied = null
    }

    /** A 2 s timeout (unless -Dserverbench.timeoutMs says otherwise), so `hang` fails quickly. */
    override fun clientSettings(): ClientSettings {
        val settings = ClientSettings.fromSystemProperties()
        val timeoutGiven = System.getProperty(ClientSettings.TIMEOUT_PROPERTY) != null
        return if (timeoutGiven) settings else settings.copy(timeout = Duration.ofSeconds(2))
    }

    @Benchmark
    fun status500() = call()

    @Benchmark
    fun wrongBody() = call()

    /** The JSON family's request, answered with well-formed JSON whose total is one cent off. */
    @Benchmark
    fun jsonWrongBody() = call()

    @Benchmark
    fun failAfter() = call()

    @Benchmark
    fun hang() = call()

    /** 503, which load balancers and Spring's own overload handling send. */
    @Benchmark
    fun status503() = call()

    /** A response cut short: Content-Length promises 1000 bytes, the connection closes after 2. */
    @Benchmark
    fun truncated() = call()

    /** The server stops (its whole application context) `failAfterMs` after the first request, under load. */
    @Benchmark
    fun dieAfter() = call()

    /**
     * Every response comes 200 ms late, and those in flight when the last measurement window closes are 500s: failures
     * the client reads only while it drains, after the last iteration, which must fail the run all the same.
     */
    @Benchmark
    fun failWhileDraining() = call()

    /** The server cannot start: the port it must bind is taken. */
    @Benchmark
    fun startFailure() = call()
}
