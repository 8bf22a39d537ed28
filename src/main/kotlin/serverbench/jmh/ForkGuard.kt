package serverbench.jmh

import java.util.concurrent.atomic.AtomicBoolean

/**
 * A benchmark fork ends when the launcher that started it ends, however that happened. JMH's fork only notices a dead
 * host when it next talks to it (at the end of an iteration, or never if an iteration hangs), and a `kill -9` of the
 * host runs no hook that could stop it: the fork would keep a server listening and load running on the machine.
 */
object ForkGuard {
    private val installed = AtomicBoolean()

    /** In a JMH fork (not in tests or `scripts/serve`), halt this JVM as soon as its parent process exits. */
    fun installInFork() {
        if (System.getProperty("sun.java.command")?.startsWith("org.openjdk.jmh.runner.ForkedMain") != true) return
        haltWhenParentExits()
    }

    /** Also for the launcher's own restart on JDK 24+ ([HostJvm]): it must not outlive the `java -jar` it replaced. */
    fun haltWhenParentExits() {
        if (!installed.compareAndSet(false, true)) return
        val parent = ProcessHandle.current().parent().orElse(null) ?: return
        parent.onExit().thenRun {
            System.err.println("serverbench: parent process ${parent.pid()} is gone; stopping ${ProcessHandle.current().pid()}")
            // halt, not exit: shutdown hooks could wait on the very server threads that keep this JVM alive.
            Runtime.getRuntime().halt(3)
        }
    }
}
