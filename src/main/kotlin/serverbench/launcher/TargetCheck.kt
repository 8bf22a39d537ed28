package serverbench.launcher

import serverbench.fixture.RemoteTarget
import serverbench.params.ParamNames
import serverbench.params.TargetLimits

/**
 * With `-Dserverbench.target`, what the launcher checks before any fork starts: the property's form, that the target
 * answers and runs every stack the planned runs name, and that nothing asked for needs the server in the fork (a CPU
 * budget, a flamegraph of it, a family that starts its own dependencies). Each problem is one line that says how to
 * apply it on the target instead, as a fork would fail it only after minutes of other runs.
 */
object TargetCheck {
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
        runs.firstNotNullOfOrNull { TargetLimits.refusal(it.params, RemoteTarget.ELSEWHERE) }?.let { return it }
        for (run in runs) {
            val why = ParamCheck.benchmark(run)?.inProcessOnly ?: continue
            return "${run.describe()} cannot drive -D${RemoteTarget.TARGET}: $why"
        }
        val status = try {
            target.status()
        } catch (e: IllegalStateException) {
            return e.message
        }
        val server = ParamNames.SERVER
        runs.firstOrNull { it.params[server] != null && it.params[server] != status.server }?.let {
            return "the target ${target.address.hostString}:${target.address.port} runs ${status.server}, not " +
                "-p $server=${it.params[server]}: add -p $server=${status.server}, or start the target with " +
                "scripts/serve --server ${it.params[server]}"
        }
        return null
    }
}
