package serverbench.params

import org.openjdk.jmh.infra.BenchmarkParams

/**
 * "CpuBenchmark.direct (server=netty, limit=1000)": a run named in console lines, warnings and failures, the same
 * way in the fork (from JMH's [BenchmarkParams]) and in the launcher (from its plan); the CPU budget's parameters only
 * when set.
 */
object RunName {
    fun of(p: BenchmarkParams): String = of(p.benchmark, values(p))

    fun of(benchmark: String, params: Map<String, String>): String {
        val shown = params.filterNot { LaterParams.isDefault(it.key, it.value) }
        val list = if (shown.isEmpty()) "" else shown.entries.joinToString(", ", " (", ")") { "${it.key}=${it.value}" }
        return benchmark.removePrefix("serverbench.benchmarks.") + list
    }

    /**
     * `concurrency=16,limit=1000,server=netty`: a run's parameters as one path segment (defaults of later parameters
     * left out; characters a path cannot hold, the `/` of `n/a`, become `_`), for the files each run writes.
     */
    fun dirName(params: Map<String, String>): String = params.toSortedMap().entries
        .filterNot { LaterParams.isDefault(it.key, it.value) }
        .joinToString(",") { "${it.key}=${it.value}" }.replace(Regex("[^A-Za-z0-9._=,+-]"), "_")

    /** `CpuBenchmark.direct/concurrency=64,server=netty`: where under a root a run's own files go. */
    fun path(benchmark: String, params: Map<String, String>): String =
        benchmark.removePrefix("serverbench.benchmarks.") + "/" + dirName(params)

    /** A fork's parameters as the launcher's plan holds them: name -> value. */
    fun values(p: BenchmarkParams): Map<String, String> = p.paramsKeys.associateWith { p.getParam(it) }
}
