package serverbench.launcher

import serverbench.fixture.ForkGuard
import java.io.File
import java.lang.management.ManagementFactory
import java.util.concurrent.TimeUnit

/**
 * JMH's runner calls `sun.misc.Unsafe.objectFieldOffset` in this (host) JVM, and JDK 24+ warns about it unless the JVM
 * was started with `--sun-misc-unsafe-memory-access=allow`. A jar's manifest can enable native access but cannot set
 * that flag, so on those JDKs the launcher starts itself once more with it (same JVM, same flags and properties,
 * output inherited; docs/jdk.md, "JDK notes", says what it costs) instead of asking every user to type it.
 */
object HostJvm {
    private const val RELAUNCHED = "serverbench.internal.relaunched"

    fun relaunchIfNeeded(args: Array<String>): Int? {
        if (Runtime.version().feature() < 24) return null
        if (System.getProperty(RELAUNCHED) != null) {
            ForkGuard.exitWhenParentExits()
            return null
        }
        if (System.getProperty("sun.misc.unsafe.memory.access") != null) return null
        val java = File(System.getProperty("java.home"), "bin/java").path
        val inherited = ManagementFactory.getRuntimeMXBean().inputArguments
        val command = listOf(
            java,
            "--sun-misc-unsafe-memory-access=allow",
            "--enable-native-access=ALL-UNNAMED",
            "-D$RELAUNCHED=true",
        ) + inherited +
            listOf("-cp", System.getProperty("java.class.path"), "serverbench.launcher.Main") +
            args
        val child = ProcessBuilder(command).inheritIO().start()
        // Ctrl-C reaches the whole process group; a plain kill of this JVM must not orphan the run.
        Runtime.getRuntime().addShutdownHook(
            Thread {
                if (child.isAlive) {
                    child.destroy()
                    child.waitFor(10, TimeUnit.SECONDS)
                }
            },
        )
        return child.waitFor()
    }
}
