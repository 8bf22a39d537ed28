package serverbench.client

import com.sun.management.UnixOperatingSystemMXBean
import java.lang.management.ManagementFactory

/**
 * Client and server share this JVM, so every connection costs at least two file descriptors here (both ends), and a
 * proxy two more (its own connection to the stub, and the stub's end). Checked before any server starts, so that
 * `-p concurrency=1000` under a small `ulimit -n` fails with what to raise rather than with connect errors mid-run.
 */
object FileDescriptors {
    /** Descriptors the JVM needs besides the connections: jars, epoll, pipes, the server's listening sockets. */
    private const val BASELINE = 256

    fun require(connections: Int, descriptorsPerConnection: Int) {
        val os = ManagementFactory.getOperatingSystemMXBean() as? UnixOperatingSystemMXBean ?: return
        val limit = os.maxFileDescriptorCount
        val needed = connections.toLong() * descriptorsPerConnection + BASELINE
        if (needed > limit) {
            throw IllegalStateException(
                "concurrency=$connections needs about $needed file descriptors in this JVM " +
                    "($descriptorsPerConnection per connection) but it may open only $limit: raise the limit " +
                    "(e.g. ulimit -n ${maxOf(needed, 65536)}) or lower -p concurrency",
            )
        }
    }
}
