package serverbench.benchmarks

import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.WorkerPools
import serverbench.params.Knobs

/**
 * Tunable benchmarks that offload work to the application's fixed worker pool (`cfFixed`, `workerCompleted`,
 * `fixedPool`), with its size as a parameter.
 */
@State(Scope.Benchmark)
abstract class PooledHttpBenchmark : TunableHttpBenchmark() {

    /** Threads of the fixed worker pool: `default` = 2 × cores. */
    @Param(Knobs.DEFAULT)
    var poolSize: String = ""

    override fun serverProperties(): Map<String, Any> = super.serverProperties() +
        listOfNotNull(count(Knobs.POOL_SIZE, poolSize)?.let { WorkerPools.BLOCKING_SIZE_PROPERTY to it })
}
