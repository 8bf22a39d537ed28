package serverbench.profile

import com.sun.tools.attach.AgentInitializationException
import com.sun.tools.attach.AgentLoadException
import com.sun.tools.attach.AttachNotSupportedException
import com.sun.tools.attach.VirtualMachine
import one.profiler.AsyncProfiler
import java.io.File
import java.io.IOException
import java.nio.file.Files
import java.nio.file.StandardCopyOption.ATOMIC_MOVE
import java.nio.file.StandardCopyOption.REPLACE_EXISTING
import java.security.MessageDigest
import java.util.Properties

/**
 * async-profiler in another JVM on this machine, the `-Dserverbench.target` that `scripts/serve` started (its pid
 * given by the launcher, `-prof flame:pid=N`), driven the way asprof drives it: each command loads the library into
 * the target through the JDK's Attach API (`VirtualMachine.loadAgentPath`), and the loaded library runs the command
 * it is given. Its output files are written by the target, its errors go to a log file named in the command, read
 * here for the one line a failing fork reports.
 *
 * The library is the Maven artifact's, copied to a path that names its content ([Library]): every fork and session
 * then loads the same file, which the target's dynamic linker maps once. A copy at another path would be a second
 * profiler in the target, fighting the first over its signals.
 */
internal class AttachedProfiler(private val pid: Long) : Sampler {
    private var active = false
    private var hooked = false

    override fun execute(command: String) {
        val verb = command.substringBefore(',')
        if (verb in setOf("start", "resume") && !hooked) {
            // A fork that ends while the target profiles (a failed iteration, JMH's timeout) must not leave it so.
            Runtime.getRuntime().addShutdownHook(Thread({ if (active) runCatching { run("stop") } }, "flame-stop"))
            hooked = true
        }
        run(command)
        if (verb in setOf("start", "resume")) active = true
        if (verb == "stop") active = false
    }

    override val samples: Long
        get() = Regex("""Total samples\s*:\s*(\d+)""").find(output("dump,traces=1"))?.groupValues?.get(1)?.toLong()
            ?: -1

    override val version: String get() = output("version").trim()

    override val jdk: String
        get() = try {
            requireJdk()
            Attach.properties(pid).let { "${it.getProperty("java.vm.name")} ${it.getProperty("java.runtime.version")}" }
        } catch (e: Attach.Refused) {
            "unknown (${e.message})"
        }

    override val profiled = "every thread of the target's JVM, pid $pid (the load client runs in the fork, not there)"

    /** What [command] writes to its `file=`. */
    private fun output(command: String): String {
        val file = File.createTempFile("serverbench-flame", ".out")
        try {
            run("$command,file=${file.absolutePath}")
            return file.readText()
        } finally {
            file.delete()
        }
    }

    private fun run(command: String) {
        requireJdk()
        val log = File.createTempFile("serverbench-flame", ".log")
        try {
            Attach.load(pid, Library.path(), "$command,log=${log.absolutePath}")
        } catch (e: Attach.Refused) {
            throw IllegalStateException(
                "flame: cannot attach to the target's JVM, pid $pid: ${e.message} (attach needs the target to run " +
                    "as this user, ${System.getProperty("user.name")}, on this machine, without " +
                    "-XX:+DisableAttachMechanism)",
            )
        } catch (e: Attach.Failed) {
            // async-profiler's own reason is in its log ("[ERROR] Profiler already started"); the JDK says only
            // "Agent_OnAttach failed".
            val why = log.readLines().lastOrNull { it.startsWith("[ERROR]") }?.removePrefix("[ERROR]")?.trim()
                ?: e.message
            val hint = if (why == "Profiler already started") {
                " (an earlier profile still runs there, a killed fork's or asprof's: asprof stop $pid, or restart " +
                    "the target)"
            } else {
                ""
            }
            throw IllegalStateException(
                "flame: async-profiler in the target's JVM, pid $pid, failed '${command.substringBefore(',')}': " +
                    "$why$hint",
            )
        } finally {
            log.delete()
        }
    }

    /** A JRE, or a jlinked runtime, may lack the Attach API: one line instead of a NoClassDefFoundError. */
    private fun requireJdk() {
        check(ModuleLayer.boot().findModule("jdk.attach").isPresent) {
            "flame: attaching to the target's JVM, pid $pid, needs the JDK's jdk.attach module, which the fork's " +
                "Java (${System.getProperty("java.home")}) lacks: run the benchmark on a JDK"
        }
    }

    /** The Attach API, touched only after [requireJdk]: loading this class needs the jdk.attach module. */
    private object Attach {
        /** Could not attach at all (no such JVM, another user's, attach disabled). */
        class Refused(message: String) : Exception(message)

        /** Attached, and the library refused the command or failed to load. */
        class Failed(message: String) : Exception(message)

        fun load(pid: Long, library: String, options: String) {
            val vm = attach(pid)
            try {
                vm.loadAgentPath(library, options)
            } catch (e: AgentLoadException) {
                throw Failed(e.message ?: e.javaClass.simpleName)
            } catch (e: AgentInitializationException) {
                throw Failed(e.message ?: e.javaClass.simpleName)
            } catch (e: IOException) {
                throw Failed(e.message?.lines()?.first() ?: e.javaClass.simpleName)
            } finally {
                vm.detach()
            }
        }

        /** The target's system properties: its JDK, for the graph's notes. */
        fun properties(pid: Long): Properties {
            val vm = attach(pid)
            return try {
                vm.systemProperties
            } catch (e: IOException) {
                throw Refused(e.message?.lines()?.first() ?: e.javaClass.simpleName)
            } finally {
                vm.detach()
            }
        }

        private fun attach(pid: Long): VirtualMachine = try {
            VirtualMachine.attach(pid.toString())
        } catch (e: AttachNotSupportedException) {
            throw Refused(e.message?.lines()?.first() ?: e.javaClass.simpleName)
        } catch (e: IOException) {
            throw Refused(e.message?.lines()?.first() ?: e.javaClass.simpleName)
        }
    }

    /** The artifact's native library as a file another process can load, at a path that names its content. */
    private object Library {
        private var path: String? = null

        @Synchronized
        fun path(): String = path ?: extract().also { path = it }

        private fun extract(): String {
            val resource = "/${platform()}/libasyncProfiler.so"
            val bytes = AsyncProfiler::class.java.getResourceAsStream(resource)?.use { it.readBytes() }
                ?: throw IllegalStateException("flame: the async-profiler artifact has no $resource")
            val hash = MessageDigest.getInstance("SHA-256").digest(bytes).joinToString("") { "%02x".format(it) }
            val user = System.getProperty("user.name").replace(Regex("[^A-Za-z0-9_.-]"), "_")
            val dir = File(System.getProperty("java.io.tmpdir"), "serverbench-async-profiler-$user/${hash.take(16)}")
            val file = File(dir, "libasyncProfiler.so")
            // Checked, not trusted: the file is loaded into the target, so it must be the artifact's, byte for byte.
            if (file.isFile && file.readBytes().contentEquals(bytes)) return file.absolutePath
            dir.mkdirs()
            val temp = File.createTempFile("libasyncProfiler", ".so", dir)
            temp.writeBytes(bytes)
            Files.move(temp.toPath(), file.toPath(), ATOMIC_MOVE, REPLACE_EXISTING)
            return file.absolutePath
        }

        /** The artifact's directory for this machine, as its Java API picks it. */
        private fun platform(): String {
            val os = System.getProperty("os.name").lowercase()
            val arch = System.getProperty("os.arch").lowercase()
            return when {
                os.contains("mac") -> "macos"
                os.contains("linux") && arch in setOf("amd64", "x86_64") -> "linux-x64"
                os.contains("linux") && arch == "aarch64" -> "linux-arm64"
                else -> throw IllegalStateException("flame: async-profiler's artifact has no library for $os/$arch")
            }
        }
    }
}
