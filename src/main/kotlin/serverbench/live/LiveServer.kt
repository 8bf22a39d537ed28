package serverbench.live

import serverbench.fixture.ForkGuard
import serverbench.fixture.RemoteTarget
import java.io.File
import java.net.InetAddress
import java.net.InetSocketAddress
import java.util.concurrent.TimeUnit

/**
 * One side's server in a process of its own: `scripts/serve`'s main class of the side's jar (a built-in stack, or a
 * team's jar with `--jar`), on loopback, on free ports it names in its "listening on" line; its admin endpoint says
 * its process's CPU time, read before and after each window. Its output goes to [log].
 */
class LiveServer private constructor(
    val name: String,
    private val process: Process,
    val address: InetSocketAddress,
    val admin: RemoteTarget,
    val log: File,
) {
    val pid: Long get() = process.pid()

    /** The JVM that serves (the admin endpoint's pid: for `--jar`, the jar's own JVM, serve's child), else [pid]. */
    val jvmPid: Long by lazy { runCatching { admin.status().pid }.getOrNull()?.takeIf { it > 0 } ?: pid }

    /** The process's CPU time now (the admin endpoint's; for `--jar`, the jar's own JVM), or null if it cannot tell. */
    fun cpuNanos(): Long? = runCatching { admin.status().processCpuNanos }.getOrNull()?.takeIf { it >= 0 }

    /** The process's compile time so far (its JVM's CompilationMXBean, from the admin endpoint), or null. */
    fun jitNanos(): Long? = runCatching { admin.status().jitNanos }.getOrNull()

    val alive: Boolean get() = process.isAlive

    /** SIGTERM, then by force after [STOP_SECONDS]: serve's hooks stop its server, budget and children. */
    fun stop() {
        process.destroy()
        if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach { it.destroyForcibly() }
            process.destroyForcibly()
            process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)
        }
    }

    companion object {
        /** `scripts/serve`'s main class, in the side's jar (which may be another build than this one). */
        const val SERVE_CLASS = "serverbench.fixture.Serve"

        /** serve's line once it listens, for a built-in stack and for `--jar` alike. */
        val LISTENING = Regex("""listening on https?://\S+:(\d+) .*; admin http://\S+:(\d+)/""")

        /** Set on each server's JVM: it exits when this process is gone, however it ended (`kill -9` included). */
        const val EXIT_WITH_PARENT = ForkGuard.EXIT_WITH_PARENT

        private const val STOP_SECONDS = 30L
        private const val POLL_MILLIS = 100L

        /**
         * Starts [command], its output in [log]; [started] sees the process at once (so an interrupt can stop it).
         * [Pending.awaitListening] then waits for its line, so that every side's server starts at the same time.
         */
        fun launch(name: String, command: List<String>, log: File, started: (Process) -> Unit): Pending {
            val process = ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start()
            started(process)
            return Pending(name, process, log)
        }
    }

    /** A started process not yet listening. */
    class Pending internal constructor(val name: String, val process: Process, val log: File) {
        /** The server once it listens; null as soon as [cancelled] says so (an interrupt, while servers start). */
        fun awaitListening(seconds: Long, cancelled: () -> Boolean = { false }): LiveServer? {
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds)
            while (!cancelled()) {
                val match = log.takeIf { it.isFile }?.readLines()?.firstNotNullOfOrNull { LISTENING.find(it) }
                if (match != null) {
                    val (port, adminPort) = match.destructured
                    val loopback = InetAddress.getLoopbackAddress()
                    val address = InetSocketAddress(loopback, port.toInt())
                    val admin = RemoteTarget(address, InetSocketAddress(loopback, adminPort.toInt()))
                    return LiveServer(name, process, address, admin, log)
                }
                val over = System.nanoTime() - deadline > 0
                if (!process.isAlive || over) {
                    if (process.isAlive) process.destroyForcibly()
                    val last = log.takeIf { it.isFile }?.readLines()?.takeLast(LAST_LINES)?.joinToString(" | ")
                    val why = if (over) "did not listen within $seconds s" else "exited (${process.waitFor()})"
                    error("the $name server $why; its last lines (${log.path}): ${last ?: "none"}")
                }
                Thread.sleep(POLL_MILLIS)
            }
            return null
        }

        private companion object {
            const val LAST_LINES = 5
        }
    }
}
