package serverbench.launcher

import serverbench.fixture.RemoteTarget
import serverbench.fixture.TargetStatus
import serverbench.params.ParamNames
import serverbench.params.ParamValues
import serverbench.params.TargetLimits
import java.io.File
import java.nio.file.Files
import java.nio.file.Path

/**
 * With `-Dserverbench.target`, what the launcher checks before any fork starts: the property's form, that a target
 * started by `scripts/serve` runs every stack the planned runs name (any other HTTP server: that they name one label),
 * that its scheme agrees with `-p tls`, and that nothing asked for needs the server in the fork (a CPU budget, a
 * family that starts its own dependencies). Each problem is one line that says how to
 * apply it on the target instead, as a fork would fail it only after minutes of other runs.
 *
 * `-prof flame` attaches to the target's JVM ([profiledPid]): only one on this machine whose pid its admin endpoint
 * says, so a remote target, or any HTTP server, is refused here ([flameProblem]).
 */
object TargetCheck {
    fun problem(runs: List<Plan.Run>, profiled: Boolean): String? {
        val target = try {
            RemoteTarget.fromSystemProperties() ?: return otherWithoutTarget(runs)
        } catch (e: IllegalArgumentException) {
            return e.message
        }
        if (profiled && !target.address.address.isLoopbackAddress) return REMOTE
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
        if (profiled) flameProblem(status)?.let { return it }
        return servedProblem(target, runs, status)
    }

    /** With the target's [status] (null: any HTTP server), whether it runs the stacks the runs name. */
    private fun servedProblem(target: RemoteTarget, runs: List<Plan.Run>, status: TargetStatus?): String? {
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

    /** The remedy for what `-prof flame` cannot attach to: the target profiled where it runs, by hand. */
    private const val BY_HAND = "asprof -e cpu -d 30 -f flame.html <pid>, docs/flamegraphs.md"

    private const val REMOTE = "-prof flame attaches to a local process: profile the target on its host ($BY_HAND)"

    /**
     * The pid `-prof flame` attaches to: the target's JVM as its admin endpoint says, after [problem] passed; null
     * without a target (the fork's own JVM is profiled then).
     */
    fun profiledPid(): Long? = RemoteTarget.fromSystemProperties()?.servedStatus()?.pid

    /**
     * Why `-prof flame` cannot attach to the target whose admin endpoint answered [status] (null: none did), or
     * null. Its pid must be a live JVM here: a loopback address may still be a container's published port, whose
     * pid is another namespace's.
     */
    fun flameProblem(status: TargetStatus?): String? {
        if (status == null) {
            return "-prof flame needs the target's pid: start it with scripts/serve (--jar for your own service)"
        }
        val pid = status.pid
        val process = ProcessHandle.of(pid).filter { it.isAlive }.orElse(null)
            ?: return "-prof flame attaches to the target's pid $pid (its admin endpoint's), which is no process on " +
                "this machine (a container's?): profile the target where it runs ($BY_HAND)"
        // Read where this user may (its own processes, or any as root); otherwise the attach says why, in the fork.
        val exe = runCatching { Files.readSymbolicLink(Path.of("/proc/$pid/exe")).fileName.toString() }.getOrNull()
            ?: process.info().command().map { File(it).name }.orElse(null)
        if (exe != null && exe != "java" && !libjvm(pid)) {
            return "-prof flame attaches to the target's pid $pid (its admin endpoint's), which runs $exe, not a " +
                "JVM: profile the target where it runs ($BY_HAND)"
        }
        return null
    }

    /** Whether the process maps a HotSpot library: a JVM started by a launcher other than `java`. */
    private fun libjvm(pid: Long): Boolean =
        runCatching { File("/proc/$pid/maps").useLines { lines -> lines.any { it.endsWith("/libjvm.so") } } }
            .getOrDefault(true)

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
