package serverbench.compare

import java.io.File
import java.io.IOException
import java.io.PrintStream
import java.util.concurrent.TimeUnit

/**
 * Ctrl-C during a comparison's forks. The JVM then runs its shutdown hooks and halts when they end, while the main
 * thread goes on: [interrupt], the hook, destroys the running fork (its launcher must not outlive compare; its own
 * hooks stop its server and fork), which closes the fork's output under the main thread's [read]. So [read] takes a
 * closed stream after an interrupt as the end, [start] starts nothing after one, and the main thread returns without
 * a word (its `exitProcess` then waits for the halt): the hook's line is all a user sees, not a stack trace.
 */
class Interruption(private val dir: File, private val err: PrintStream) {
    private val lock = Any()
    private var current: Process? = null

    /** The running fork's own service ([ServedService]), when its side serves one. */
    private var service: Process? = null

    @Volatile
    var happened = false
        private set

    /** Forks completed and planned so far, for the hook's line. */
    @Volatile
    var done = 0

    @Volatile
    var planned = 0

    /** The fork's process, or null once interrupted: then nothing is started. */
    fun start(builder: ProcessBuilder): Process? = synchronized(lock) {
        if (happened) null else builder.start().also { current = it }
    }

    /** A fork's service ([ServedService]), or null once interrupted: then nothing is started. */
    fun startService(builder: ProcessBuilder): Process? = synchronized(lock) {
        if (happened) null else builder.start().also { service = it }
    }

    /** The service stopped (or never came up): the hook has nothing more to stop. */
    fun serviceStopped() = synchronized(lock) { service = null }

    /** [process]'s output, line by line, to [line] until it ends; its exit status, or null when interrupted. */
    fun read(process: Process, line: (String) -> Unit): Int? {
        try {
            process.inputStream.bufferedReader().forEachLine { if (!happened) line(it) }
        } catch (e: IOException) {
            // The hook's destroy closes the stream; any other failure to read is compare's to report.
            if (!happened) throw e
        }
        val status = process.waitFor()
        synchronized(lock) { current = null }
        return if (happened) null else status
    }

    /**
     * The shutdown hook's work: one line, then the running fork stopped, then its service (the forks' files stay where
     * they are); the service's supervisor stops the jar's JVM and what it started.
     */
    fun interrupt() {
        val (process, served) = synchronized(lock) {
            happened = true
            current to service
        }
        err.println("compare: interrupted after $done of $planned forks; the forks' results so far stay in $dir/")
        process?.let {
            it.destroy()
            it.waitFor(30, TimeUnit.SECONDS)
        }
        served?.let {
            it.destroy()
            it.waitFor(60, TimeUnit.SECONDS)
        }
    }
}
