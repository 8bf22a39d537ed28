package serverbench.hyperfoil

import java.io.File
import java.util.Collections
import java.util.concurrent.TimeUnit

/**
 * A `scripts/serve` the in-VM Hyperfoil run started for one run, on a free loopback port: the same application the
 * benchmarks start in-process. [close] stops it (its shutdown hook stops the server) and waits until it is gone;
 * [Children] stops whatever is still running when this JVM is stopped (Ctrl-C), so no server outlives the run.
 */
class ServeProcess private constructor(private val process: Process, val port: Int, val adminPort: Int) :
    AutoCloseable {
    val pid: Long get() = process.pid()

    override fun close() {
        Children.stop(process)
    }

    companion object {
        private val LISTENING =
            Regex("""listening on http://127\.0\.0\.1:(\d+) .* admin http://127\.0\.0\.1:(\d+)/""")

        /**
         * Starts `serve --server [server] --port 0` with [properties] (`-D` in its JAVA_OPTS), output to [out]; throws
         * [IllegalStateException] (one line).
         */
        fun start(
            serve: File,
            server: String,
            out: File,
            properties: Map<String, String> = emptyMap(),
            startSeconds: Long = 120,
        ): ServeProcess {
            val builder = ProcessBuilder(serve.path, "--server", server, "--port", "0")
            if (properties.isNotEmpty()) {
                val env = builder.environment()
                env["JAVA_OPTS"] = (listOfNotNull(env["JAVA_OPTS"]) + properties.map { "-D${it.key}=${it.value}" })
                    .joinToString(" ")
            }
            val process = builder.redirectErrorStream(true).redirectOutput(out).start()
            Children.track(process)
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(startSeconds)
            while (System.nanoTime() < deadline && process.isAlive) {
                LISTENING.find(out.readText())?.let { m ->
                    return ServeProcess(process, m.groupValues[1].toInt(), m.groupValues[2].toInt())
                }
                Thread.sleep(100)
            }
            Children.stop(process)
            val last = out.readLines().lastOrNull { it.isNotBlank() }?.trim() ?: "no output"
            throw IllegalStateException("scripts/serve --server $server did not start (see $out): $last")
        }
    }
}

/** Processes this JVM started; a shutdown hook stops those still alive, and each is waited for until gone. */
object Children {
    private val live = Collections.synchronizedSet(LinkedHashSet<Process>())

    init {
        Runtime.getRuntime().addShutdownHook(Thread { live.toList().forEach { stop(it) } })
    }

    fun track(process: Process) {
        live += process
    }

    /** SIGTERM (scripts/serve's hook stops its server), then SIGKILL after 20 s; descendants too. */
    fun stop(process: Process) {
        val descendants = process.descendants().toList()
        process.destroy()
        if (!process.waitFor(20, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS)
        descendants.filter { it.isAlive }.forEach { it.destroyForcibly() }
        live -= process
    }
}
