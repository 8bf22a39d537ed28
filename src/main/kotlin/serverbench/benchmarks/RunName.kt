package serverbench.benchmarks

import org.openjdk.jmh.infra.BenchmarkParams

/** "CpuBenchmark.direct (server=netty, limit=1000)": a run named in console lines and warnings. */
object RunName {
    fun of(p: BenchmarkParams): String = p.benchmark.removePrefix("serverbench.benchmarks.") +
        p.paramsKeys.filterNot { serverbench.fixture.CpuPlacement.isDefault(it, p.getParam(it)) }
            .let { keys ->
                if (keys.isEmpty()) "" else keys.joinToString(", ", " (", ")") { "$it=${p.getParam(it)}" }
            }
}
