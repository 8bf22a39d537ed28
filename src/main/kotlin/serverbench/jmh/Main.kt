@file:JvmName("Main")

package serverbench.jmh

import org.openjdk.jmh.runner.BenchmarkException
import org.openjdk.jmh.runner.NoBenchmarksException
import org.openjdk.jmh.runner.ProfilersFailedException
import org.openjdk.jmh.runner.Runner
import org.openjdk.jmh.runner.RunnerException
import org.openjdk.jmh.runner.options.CommandLineOptionException
import org.openjdk.jmh.runner.options.CommandLineOptions
import org.openjdk.jmh.runner.options.Options
import org.openjdk.jmh.runner.options.OptionsBuilder
import serverbench.client.LoadFailure
import kotlin.system.exitProcess

/**
 * Entry point of `target/benchmarks.jar`: JMH's own command line (every standard option works the same), plus what
 * serverbench needs on every run, so users never have to remember it:
 * - the [LoadMetricsProfiler] (latency percentiles, errors, client CPU) without a `-prof` flag;
 * - JVM flags that keep JDK 21+ forks quiet about Netty's and JMH's native/Unsafe access (ignored by JDK 17);
 * - every `-Dserverbench.*` system property of this JVM, forwarded to the forks;
 * - the self-check benchmarks (which fail on purpose) only when a pattern names them;
 * - a failed benchmark reported in one line, and a non-zero exit status.
 */
fun main(args: Array<String>) {
    exitProcess(Launcher.run(args))
}

object Launcher {
    /** JVM flags for forks: silence JDK 22+/24+ warnings about native access and sun.misc.Unsafe. */
    val COMPAT_JVM_ARGS = listOf(
        "-XX:+IgnoreUnrecognizedVMOptions",
        "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow",
    )
    const val SELF_CHECK = "SelfCheck"

    fun run(args: Array<String>): Int {
        val cmd = try {
            CommandLineOptions(*args)
        } catch (e: CommandLineOptionException) {
            System.err.println("Error parsing command line: ${e.message}")
            return 1
        }
        val listing = Runner(cmd)
        when {
            cmd.shouldHelp() -> { cmd.showHelp(); return 0 }
            cmd.shouldList() -> { listing.list(); return 0 }
            cmd.shouldListWithParams() -> { listing.listWithParams(cmd); return 0 }
            cmd.shouldListProfilers() -> { cmd.listProfilers(); return 0 }
            cmd.shouldListResultFormats() -> { cmd.listResultFormats(); return 0 }
        }
        cmd.threads.orElse(1).let { threads ->
            if (threads != 1) {
                System.err.println("serverbench: -t $threads is not supported: one client thread drives each benchmark; " +
                    "set the load with -p concurrency=N (connections) instead")
                return 1
            }
        }
        val options = options(cmd, System.getProperties())
        try {
            Runner(options).run()
            return 0
        } catch (e: NoBenchmarksException) {
            System.err.println("No matching benchmarks. Miss-spelled regexp? List them with: java -jar target/benchmarks.jar -l")
            return 1
        } catch (e: ProfilersFailedException) {
            generateSequence<Throwable>(e) { it.cause }.forEach { ex ->
                System.err.println(ex.message)
                ex.suppressed.forEach { System.err.println(it.message) }
            }
            return 1
        } catch (e: RunnerException) {
            val failure = loadFailure(e)
            if (failure != null) {
                System.err.println("serverbench: benchmark failed: ${failure.message}")
            } else {
                System.err.print("ERROR: ")
                e.printStackTrace(System.err)
            }
            return 1
        }
    }

    fun options(cmd: Options, properties: java.util.Properties): Options {
        val builder = OptionsBuilder().parent(cmd)
        if (cmd.profilers.none { it.klass == LoadMetricsProfiler::class.java.name }) {
            builder.addProfiler(LoadMetricsProfiler::class.java)
        }
        val forwarded = properties.stringPropertyNames().filter { it.startsWith("serverbench.") }.sorted()
            .map { "-D$it=${properties.getProperty(it)}" }
        val user = cmd.jvmArgsAppend.orElse(emptyList())
        builder.jvmArgsAppend(*(COMPAT_JVM_ARGS + forwarded + user).toTypedArray())
        if (cmd.includes.none { it.contains(SELF_CHECK) }) builder.exclude(SELF_CHECK)
        return builder.build()
    }

    private fun loadFailure(e: Throwable): LoadFailure? {
        val seen = HashSet<Throwable>()
        val queue = ArrayDeque(listOf(e))
        while (queue.isNotEmpty()) {
            val t = queue.removeFirst()
            if (!seen.add(t)) continue
            if (t is LoadFailure) return t
            t.cause?.let(queue::add)
            queue.addAll(t.suppressed)
            if (t is BenchmarkException) queue.addAll(t.suppressed)
        }
        return null
    }
}
