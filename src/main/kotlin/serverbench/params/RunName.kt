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

    /** A fork's parameters as the launcher's plan holds them: name -> value. */
    fun values(p: BenchmarkParams): Map<String, String> = p.paramsKeys.associateWith { p.getParam(it) }
}
