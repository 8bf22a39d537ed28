package serverbench.launcher

import serverbench.fixture.RemoteTarget
import serverbench.params.ParamNames
import serverbench.params.ParamValues
import serverbench.params.TargetLimits

/**
 * With `-Dserverbench.target`, what the launcher checks before any fork starts: the property's form, that a target
 * started by `scripts/serve` runs every stack the planned runs name (any other HTTP server: that they name one label),
 * that its scheme agrees with `-p tls`, and that nothing asked for needs the server in the fork (a CPU budget, a
 * flamegraph of it, a family that starts its own dependencies). Each problem is one line that says how to
 * apply it on the target instead, as a fork would fail it only after minutes of other runs.
 */
object TargetCheck {
    fun problem(runs: List<Plan.Run>, profiled: Boolean): String? {
        val target = try {
            RemoteTarget.fromSystemProperties() ?: return otherWithoutTarget(runs)
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
        schemeProblem(target, runs)?.let { return it }
        val status = try {
            target.servedStatus()
        } catch (e: IllegalStateException) {
            return e.message
        }
        val server = ParamNames.SERVER
        val where = "${target.address.hostString}:${target.address.port}"
        if (status == null) {
            // Any HTTP server: -p server only labels its results, so one run per label would drive one server twice.
            val labels = runs.mapNotNull { it.params[server] }.distinct()
            if (labels.size <= 1) return null
            return "the target $where does not say its stack (no scripts/serve admin endpoint at port " +
                "${target.adminAddress.port}): name it with one -p $server=${ParamValues.SERVERS.joinToString("|")}" +
                "|${ParamValues.OTHER} (a label for its results; nothing checks it)"
        }
        runs.firstOrNull { it.params[server] != null && it.params[server] != status.server }?.let {
            return "the target $where runs ${status.server}, not " +
                "-p $server=${it.params[server]}: add -p $server=${status.server}, or start the target with " +
                "scripts/serve --server ${it.params[server]}"
        }
        return null
    }

    /** `-p server=other` labels a target's results: without one there is no server of another kind to drive. */
    private fun otherWithoutTarget(runs: List<Plan.Run>): String? =
        runs.firstOrNull { it.params[ParamNames.SERVER] == ParamValues.OTHER }?.let {
            "-p ${ParamNames.SERVER}=${ParamValues.OTHER} labels a server that runs elsewhere: only with " +
                "-D${RemoteTarget.TARGET}=host:port (in this JVM, -p ${ParamNames.SERVER} is tomcat, jetty or netty)"
        }

    /** `https://` and `http://` in the target must agree with `-p tls`, which the results and report show. */
    private fun schemeProblem(target: RemoteTarget, runs: List<Plan.Run>): String? {
        val https = target.https ?: return null
        val tls = ParamNames.TLS
        val off = runs.firstOrNull { (it.params[tls] == ParamValues.TRUE) != https } ?: return null
        return if (https) {
            "-D${RemoteTarget.TARGET} names an https:// server, and ${off.describe()} speaks plain HTTP: add " +
                "-p $tls=${ParamValues.TRUE}"
        } else {
            "-D${RemoteTarget.TARGET} names an http:// server, and ${off.describe()} speaks TLS: leave out -p $tls"
        }
    }
}
