package serverbench.launcher

import org.openjdk.jmh.runner.options.Options
import serverbench.fixture.RemoteTarget
import java.io.File
import java.nio.channels.FileChannel
import java.nio.file.Files
import java.nio.file.StandardCopyOption
import java.nio.file.StandardOpenOption
import java.security.MessageDigest
import java.util.concurrent.TimeUnit

/**
 * Class data for the forks, so that each starts sooner (docs/jdk.md#fork-start): a dynamic AppCDS archive on JDK 17-24
 * (`-XX:SharedArchiveFile`), the AOT cache on JDK 25+ (`-XX:AOTCache`). One archive per jar (by content), fork JDK and
 * server stack, kept in `fork-archives/` beside the jar and made by a short training fork ([ArchiveTraining]) the first
 * time a session needs it, under a file lock, so sessions one after another reuse it. Every archive is tried by a
 * `java -version` that must map it before any fork gets it: a stale or corrupt one is made again. An archive that
 * still fails to map in a fork costs that fork its start time only: `-Xshare:auto` and `AOTMode=auto` go on without it.
 */
class ForkArchive internal constructor(
    private val java: String,
    private val jdk: Int,
    private val classPath: String,
    val dir: File,
    /** The jar's name and content hash: archives of its earlier builds are deleted when one is made. */
    private val jarKey: String,
    private val prefix: String,
    private val jvmArgs: List<String>,
    private val say: (String) -> Unit,
) {
    private val ready = HashMap<String, File>()
    private val extension = if (jdk >= AOT_CACHE_JDK) "aot" else "jsa"

    /** The archive of [server] (made now if there is none that maps), or null: the forks then start without one. */
    fun prepare(server: String, train: (List<String>) -> String?): File? {
        ready[server]?.let { return it }
        val file = File(dir, "$prefix-$server.$extension")
        dir.mkdirs()
        val lockFile = File(dir, "$prefix-$server.lock").toPath()
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)
            .use { channel ->
                // Blocks while another session makes this archive; then this one reuses it.
                channel.lock().use {
                    if (maps(file)) return file.also { ready[server] = it }
                    val jarName = jarKey.substringBeforeLast('-')
                    dir.listFiles()?.filter { it.name.startsWith("$jarName-") && !it.name.startsWith("$jarKey-") }
                        ?.forEach { it.delete() }
                    val tmp = File(dir, "$prefix-$server.${ProcessHandle.current().pid()}.tmp")
                    tmp.delete()
                    say(
                        "serverbench: making the forks' class-data archive for $server (once per jar, JDK and " +
                            "server; " +
                            "a short NoopBenchmark fork, whose lines follow in JMH's output)",
                    )
                    val started = System.nanoTime()
                    val failed = train(recordArgs(tmp)) ?: if (tmp.isFile) mapFailure(tmp) else "no archive was written"
                    if (failed != null) {
                        tmp.delete()
                        say(
                            "serverbench: could not make the forks' class-data archive for $server ($failed); its " +
                                "forks start without one (slower start only)",
                        )
                        return null
                    }
                    Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.ATOMIC_MOVE)
                    val seconds = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) / 1000.0
                    say("serverbench: made the forks' class-data archive for $server in %.1f s: $file".format(seconds))
                    return file.also { ready[server] = it }
                }
            }
    }

    /** Whether [file] is an archive that maps; one that does not is deleted, to be made again. */
    private fun maps(file: File): Boolean {
        if (!file.isFile) return false
        val why = mapFailure(file) ?: return true
        say("serverbench: the class-data archive ${file.path} does not map ($why); making it again")
        file.delete()
        return false
    }

    /** Flags a fork of [server] gets: the archive's, once [prepare] made or found one. */
    fun useArgs(server: String): List<String> {
        val file = ready[server] ?: return emptyList()
        return listOf((if (jdk >= AOT_CACHE_JDK) "-XX:AOTCache=" else "-XX:SharedArchiveFile=") + file.path)
    }

    private fun recordArgs(tmp: File) =
        listOf((if (jdk >= AOT_CACHE_JDK) "-XX:AOTCacheOutput=" else "-XX:ArchiveClassesAtExit=") + tmp.path)

    /** Why [file] does not map in a JVM started as the forks are (null: it maps), from a `java -version`. */
    internal fun mapFailure(file: File): String? {
        val strict = if (jdk >= AOT_CACHE_JDK) {
            listOf("-XX:AOTMode=on", "-XX:AOTCache=${file.path}")
        } else {
            listOf("-Xshare:on", "-XX:SharedArchiveFile=${file.path}")
        }
        val command = listOf(java) + jvmArgs + strict + listOf("-cp", classPath, "-version")
        val process = ProcessBuilder(command).redirectErrorStream(true).start()
        val output = process.inputStream.bufferedReader().readText()
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor()
            return "java -version did not finish in 30 s"
        }
        if (process.exitValue() == 0) return null
        return output.lineSequence().map { it.trim() }
            .firstOrNull { it.isNotEmpty() && !it.startsWith("Error occurred") }
            ?: "java -version exited ${process.exitValue()}"
    }

    companion object {
        /** JDK 25 has the one-step AOT cache (JEP 514); earlier JDKs get the dynamic CDS archive. */
        const val AOT_CACHE_JDK = 25

        /** `-Dserverbench.forkArchive=off` starts the forks as before: no archive made or used. */
        const val PROPERTY = "serverbench.forkArchive"

        /** Flags by which a user chose class data sharing for the forks themselves: then theirs apply, not ours. */
        private val USER_FLAGS =
            listOf("-Xshare", "-XX:SharedArchiveFile", "-XX:ArchiveClassesAtExit", "-XX:AOT", "-XX:+AutoCreateShared")

        /** `-Dserverbench.forkArchive`'s value checked: one line naming the allowed values, or null. */
        fun badProperty(value: String?): String? = if (value == null || value == "on" || value == "off") {
            null
        } else {
            "-D$PROPERTY must be on or off, was '$value'"
        }

        /** The user's flag that takes class data sharing into their own hands, or null. */
        fun userFlag(options: Options): String? = (
            options.jvmArgs.orElse(emptyList()) + options.jvmArgsPrepend.orElse(emptyList()) +
                options.jvmArgsAppend.orElse(emptyList())
            ).firstOrNull { arg -> USER_FLAGS.any { arg.startsWith(it) } }

        /**
         * The session's archives, or null when the forks' class path is not one jar (tests from target/classes),
         * with [PROPERTY] off, or when the user's own flags set class data sharing.
         */
        fun of(options: Options, jvmArgs: List<String>, say: (String) -> Unit): ForkArchive? {
            // A target's server runs elsewhere: a training fork would send its requests there.
            if (System.getProperty(PROPERTY) == "off" || System.getProperty(RemoteTarget.TARGET) != null) return null
            userFlag(options)?.let {
                say("serverbench: the forks use your $it, not serverbench's class-data archive")
                return null
            }
            val classPath = System.getProperty("java.class.path") ?: return null
            val jar = File(classPath).takeIf { it.isFile && it.name.endsWith(".jar") } ?: return null
            val java = options.jvm.orElse(null) ?: File(System.getProperty("java.home"), "bin/java").path
            val jdk = Applicability.forkJdk(options.jvm.orElse(null))
            val release = File(File(java).absoluteFile.parentFile?.parentFile, "release")
            val jdkId = hashOf((if (release.isFile) release.readText() else "") + File(java).absolutePath).take(8)
            val jarKey = "${jar.nameWithoutExtension}-${fileHash(jar).take(16)}"
            val dir = File(jar.absoluteFile.parentFile, "fork-archives")
            return ForkArchive(java, jdk, classPath, dir, jarKey, "$jarKey-jdk$jdk-$jdkId", jvmArgs, say)
        }

        private fun hashOf(text: String) = hex(MessageDigest.getInstance("SHA-256").digest(text.toByteArray()))

        /** SHA-256 of a file's bytes, in hex: a jar's identity (its archive's name, a capacity run's rerun check). */
        fun fileHash(file: File): String {
            val digest = MessageDigest.getInstance("SHA-256")
            file.inputStream().use { input ->
                val buffer = ByteArray(1 shl 16)
                while (true) {
                    val n = input.read(buffer)
                    if (n < 0) break
                    digest.update(buffer, 0, n)
                }
            }
            return hex(digest.digest())
        }

        private fun hex(bytes: ByteArray) = bytes.joinToString("") { "%02x".format(it) }
    }
}
