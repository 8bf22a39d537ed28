package serverbench.benchmarks

import java.io.File
import java.util.concurrent.TimeUnit

/** Runs the built `target/benchmarks.jar` as a user would, with a time bound. */
object Jar {
    val path: File = File(System.getProperty("serverbench.jar") ?: "target/benchmarks.jar").absoluteFile

    class Run(val exitCode: Int, val stdout: String, val stderr: String) {
        override fun toString() = "exit $exitCode\n--- stdout\n${stdout.takeLast(4000)}\n--- stderr\n${stderr.takeLast(4000)}"
    }

    /**
     * The steady-state warmup runs in every run here, bounded: these runs check behaviour, not figures, and an
     * unsteady 2-core CI machine must not spend the full default limit on each. A caller's own value comes later and wins.
     */
    val BOUNDED_WARMUP = listOf("-Dserverbench.warmupMaxSeconds=8")

    /** [jvmArgs] go to the launcher's JVM, before `-jar` (e.g. `-Dserverbench.*`, which it forwards to the forks). */
    fun run(
        vararg args: String, java: String = currentJava(), minutes: Long = 5, jvmArgs: List<String> = emptyList(),
    ): Run {
        check(path.isFile) { "$path not built: run mvn package first" }
        val out = File.createTempFile("serverbench-out", ".txt")
        val err = File.createTempFile("serverbench-err", ".txt")
        try {
            val process = ProcessBuilder(listOf(java) + BOUNDED_WARMUP + jvmArgs + listOf("-jar", path.path) + args)
                .redirectOutput(out).redirectError(err).start()
            if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
                process.descendants().forEach { it.destroyForcibly() }
                process.destroyForcibly()
                error("benchmarks.jar ${args.joinToString(" ")} did not finish in $minutes minutes:\n${out.readText().takeLast(3000)}")
            }
            return Run(process.exitValue(), out.readText(), err.readText())
        } finally {
            out.delete()
            err.delete()
        }
    }

    /** Starts the jar without waiting, output to [out] and [err]; the caller stops it. */
    fun start(vararg args: String, out: File, err: File, java: String = currentJava()): Process {
        check(path.isFile) { "$path not built: run mvn package first" }
        return ProcessBuilder(listOf(java) + BOUNDED_WARMUP + listOf("-jar", path.path) + args)
            .redirectOutput(out).redirectError(err).start()
    }

    fun currentJava(): String = File(System.getProperty("java.home"), "bin/java").path

    /** The newest JDK >= 21 installed beside this one (e.g. /usr/lib/jvm/temurin-25-jdk-amd64), if any. */
    fun newerJava(): String? {
        val roots = listOfNotNull(System.getenv("SERVERBENCH_NEW_JDK"), "/usr/lib/jvm", "/opt/java")
        val candidates = roots.map(::File).flatMap { root ->
            if (File(root, "bin/java").isFile) listOf(root) else root.listFiles()?.toList() ?: emptyList()
        }
        return candidates.mapNotNull { home ->
            val release = File(home, "release").takeIf { it.isFile }?.readText() ?: return@mapNotNull null
            val version = Regex("JAVA_VERSION=\"(\\d+)").find(release)?.groupValues?.get(1)?.toInt() ?: return@mapNotNull null
            val java = File(home, "bin/java")
            if (version >= 21 && java.canExecute()) version to java.path else null
        }.maxByOrNull { it.first }?.second
    }
}
