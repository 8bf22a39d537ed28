package serverbench.compare

import serverbench.fixture.RemoteTarget
import serverbench.live.LiveServer
import java.io.File
import java.util.concurrent.TimeUnit

/**
 * A side's own service for one fork (`--base-serve` / `--head-serve`: the arguments of `scripts/serve --jar`): started
 * fresh before the fork and stopped after it, as JMH starts each fork in a fresh JVM. The forks' spread then holds the
 * service's start-to-start variation (its JIT's choices, its heap, its database), which the comparison's interval must
 * contain to hold; and the other side's service is not running while a fork measures, so it takes no memory or CPU
 * from it. The supervisor is this side's jar's `scripts/serve` (its main class, in a process of its own), on loopback,
 * on free ports it reports in its "listening on" line.
 */
class ServedService private constructor(
    private val process: Process,
    private val interruption: Interruption,
    /** The launcher's options that make the fork drive this service and read its admin endpoint. */
    val target: List<String>,
) {
    /** SIGTERM: the supervisor's hook stops the jar's JVM (gracefully, then by force) and what it started. */
    fun stop() {
        process.destroy()
        if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach { it.destroyForcibly() }
            process.destroyForcibly()
        }
        interruption.serviceStopped()
    }

    companion object {
        /** `scripts/serve`'s main class, in the side's jar (which may be another build than this one). */
        private const val SERVE_CLASS = "serverbench.fixture.Serve"
        private const val STOP_SECONDS = 60L

        /** Options compare sets itself: the fork must find the service where it listens, on loopback. */
        val OWNED = listOf("--port", "--admin-port", "--bind", "--log", "--server")

        /** The one line refusing [args] as a side's `--NAME-serve`; null when they can start a service. */
        fun problem(option: String, args: List<String>): String? {
            val own = args.takeWhile { it != "--" }
            if ("--jar" !in own) return "$option '${args.joinToString(" ")}': needs --jar path/to/service.jar"
            val jar = File(own.getOrNull(own.indexOf("--jar") + 1) ?: "")
            if (!jar.isFile) return "$option: --jar ${jar.path}: no such file"
            own.firstOrNull { a -> OWNED.any { a == it || a.startsWith("$it=") } }?.let {
                return "$option: $it is compare's to set (each fork's service listens on free loopback ports)"
            }
            return null
        }

        /**
         * Starts [config]'s service for the fork [name], its supervisor's lines in `name-serve.log` and the jar's
         * output in `name-service.log` in [dir]; null when it did not come up (a line on [err] said why, with the
         * supervisor's last lines) or the run was interrupted ([interruption]).
         */
        fun start(
            config: Configuration,
            name: String,
            dir: File,
            interruption: Interruption,
            err: (String) -> Unit,
        ): ServedService? {
            val serveLog = File(dir, "$name-serve.log")
            val command = listOf(config.java, "-Xmx256m", "-XX:+UseSerialGC", "-cp", config.jar.path, SERVE_CLASS) +
                config.serve.takeWhile { it != "--" } +
                listOf("--port", "0", "--log", File(dir, "$name-service.log").absolutePath) +
                config.serve.dropWhile { it != "--" }
            val builder = ProcessBuilder(command).redirectErrorStream(true).redirectOutput(serveLog)
            val process = interruption.startService(builder) ?: return null
            while (true) {
                val match = serveLog.takeIf {
                    it.isFile
                }?.readLines()?.firstNotNullOfOrNull { LiveServer.LISTENING.find(it) }
                if (match != null) {
                    val (port, admin) = match.destructured
                    val target = listOf("-D${RemoteTarget.TARGET}=127.0.0.1:$port", "-D${RemoteTarget.ADMIN}=$admin")
                    return ServedService(process, interruption, target)
                }
                if (!process.isAlive) break
                Thread.sleep(POLL_MILLIS)
            }
            if (interruption.happened) return null
            interruption.serviceStopped()
            err("compare: the ${config.name} side's service for $name did not start (exit ${process.exitValue()}):")
            serveLog.readLines().filter { it.isNotBlank() }.takeLast(TAIL).forEach { err("  $it") }
            return null
        }

        private const val POLL_MILLIS = 100L
        private const val TAIL = 15
    }
}
