@file:JvmName("Main")

package serverbench.launcher

import kotlin.system.exitProcess

/**
 * Entry point of `target/benchmarks.jar`: JMH's own command line (every standard option works the same), plus what
 * serverbench needs on every run, so users never have to remember it:
 * - the [LoadMetricsProfiler] (latency percentiles, errors, client CPU) without a `-prof` flag;
 * - JVM flags that keep JDK 21+ forks quiet about Netty's and JMH's native/Unsafe access (ignored by JDK 17);
 * - every `-Dserverbench.*` system property of this JVM, forwarded to the forks;
 * - the self-check benchmarks (which fail on purpose) only when a pattern names them;
 * - a failed benchmark reported in one line, and a non-zero exit status whenever a benchmark failed.
 */
fun main(args: Array<String>) {
    exitProcess(HostJvm.relaunchIfNeeded(args) ?: Launcher.run(args))
}
