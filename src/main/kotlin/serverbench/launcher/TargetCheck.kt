package serverbench.launcher

import serverbench.benchmarks.Knobs
import serverbench.fixture.RemoteTarget

/**
 * With `-Dserverbench.target`, what the launcher checks before any fork starts: the property's form, that the target
 * answers and runs every stack the planned runs name, and that nothing asked for needs the server in the fork (a CPU
 * budget, a flamegraph of it, a family that starts its own dependencies). Each problem is one line that says how to
 * apply it on the target instead, as a fork would fail it only after minutes of other runs.
 */
object TargetCheck {
    /** Parameters that set the server's Spring properties (TunableHttpBenchmark, PooledHttpBenchmark). */
    private val SERVER_KNOBS =
        setOf(
            Knobs.TOMCAT_MAX_THREADS,
            Knobs.JETTY_MAX_THREADS,
            Knobs.NETTY_IO_WORKERS,
            Knobs.VIRTUAL_THREADS,
            "poolSize",
        )

    fun problem(runs: List<Plan.Run>, profiled: Boolean): String? {
        val target = try {
            RemoteTarget.fromSystemProperties() ?: return null
        } catch (e: IllegalArgumentException) {
            return e.message
        }
        if (profiled) {
            return "-prof flame profiles the benchmark's JVM, and -D${RemoteTarget.TARGET} runs the server " +
                "elsewhere: profile the serve process on its host (docs/scaling-the-load.md)"
        }
        runs.firstOrNull { ParamCheck.placement(it).limited }?.let {
            val placement = ParamCheck.placement(it)
            return "-p $placement budgets a server the benchmark starts; with -D${RemoteTarget.TARGET} set the " +
                "budget where the target runs: scripts/serve ${placement.serveOptions()}"
        }
        for (run in runs) {
            val why = ParamCheck.benchmark(run)?.inProcessOnly ?: continue
            return "${run.describe()} cannot drive -D${RemoteTarget.TARGET}: $why"
        }
        for (run in runs) {
            val knob = run.params.entries.firstOrNull { (k, v) -> k in SERVER_KNOBS && !Knobs.unset(k, v) }
                ?: continue
            return "-p ${knob.key}=${knob.value} sets a property of a server the benchmark starts; a target takes " +
                "its properties where it runs: JAVA_OPTS='-D<property>=<value>' scripts/serve ... " +
                "(docs/catalogue.md, \"Server knobs\")"
        }
        val status = try {
            target.status()
        } catch (e: IllegalStateException) {
            return e.message
        }
        runs.firstOrNull { it.params["server"] != null && it.params["server"] != status.server }?.let {
            return "the target ${target.address.hostString}:${target.address.port} runs ${status.server}, not " +
                "-p server=${it.params["server"]}: add -p server=${status.server}, or start the target with " +
                "scripts/serve --server ${it.params["server"]}"
        }
        return null
    }
}
