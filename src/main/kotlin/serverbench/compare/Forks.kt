package serverbench.compare

import serverbench.compare.ForkOrder.Side
import java.io.File
import java.io.PrintStream
import java.util.concurrent.TimeUnit

/**
 * Runs a comparison's forks in [ForkOrder], one process at a time (two at once would measure each other): each is
 * the side's own launcher with one fork, so a jar or a JDK can differ between sides. Their console lines go to [err]
 * with the fork's name in front; stdout stays for the table.
 */
class Forks(
    private val base: Configuration,
    private val head: Configuration,
    private val common: List<String>,
    private val dir: File,
    private val err: PrintStream,
) {
    /** Each fork's side and its JMH results (null when no run of it completed); null when a side was refused. */
    fun run(forks: Int): List<Pair<Side, File?>>? {
        val order = ForkOrder.of(forks)
        for (config in listOf(base, head)) {
            if (!refused(config)) continue
            err.println("compare: the ${config.name} side's command was refused (exit 2); nothing was started")
            return null
        }
        check(dir.mkdirs()) { "could not create $dir" }
        val done = ArrayList<Pair<Side, File?>>()
        val count = mutableMapOf(Side.BASE to 0, Side.HEAD to 0)
        val started = System.nanoTime()
        var current: Process? = null
        // Ctrl-C: the fork's launcher must not outlive compare (its own hooks stop its server and fork).
        val hook = Thread {
            current?.let {
                it.destroy()
                it.waitFor(30, TimeUnit.SECONDS)
            }
        }
        Runtime.getRuntime().addShutdownHook(hook)
        try {
            for ((i, side) in order.withIndex()) {
                val config = if (side == Side.BASE) base else head
                val n = count.getValue(side) + 1
                count[side] = n
                val name = "${config.name}-$n"
                val json = File(dir, "$name.json")
                val elapsed = (System.nanoTime() - started) / 1e9
                val left = if (i == 0) "" else ", about ${minutes(elapsed / i * (order.size - i))} left"
                err.println("compare: fork ${i + 1} of ${order.size}: ${config.name} ($n of $forks)$left")
                val process = ProcessBuilder(config.command(common, json, File(dir, "$name.log")))
                    .redirectErrorStream(true).start()
                current = process
                process.inputStream.bufferedReader().forEachLine { err.println("  [$name] $it") }
                val status = process.waitFor()
                current = null
                if (status == 2 && n == 1 && !config.checksFirst()) {
                    // A jar too old to check first, refused before anything started: its line said why.
                    err.println("compare: the ${config.name} side's command was refused (exit 2); nothing was compared")
                    dir.deleteRecursively()
                    return null
                }
                if (status != 0) err.println("compare: fork $name exited with status $status; its log: $dir/$name.log")
                done += side to json.takeIf { it.isFile }
            }
        } finally {
            runCatching { Runtime.getRuntime().removeShutdownHook(hook) }
        }
        return done
    }

    /**
     * Runs the side's launcher in check-only mode: a wrong `-p` value or option is refused, in the launcher's own
     * line, before either side measures anything. Jars without compare (older builds) cannot check; their first fork
     * is the check.
     */
    private fun refused(config: Configuration): Boolean {
        if (!config.checksFirst()) return false
        val probe = File.createTempFile("compare-check", ".json").also { it.delete() }
        val process = ProcessBuilder(config.command(common, probe, File("/dev/null"), checkOnly = true))
            .redirectErrorStream(true).start()
        process.inputStream.bufferedReader().forEachLine { err.println("  [${config.name}] $it") }
        val status = process.waitFor()
        probe.delete()
        return status == 2
    }

    private fun minutes(seconds: Double): String {
        val s = seconds.toLong()
        return if (s < 120) "$s s" else "${s / 60} min"
    }
}
