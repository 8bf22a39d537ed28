package serverbench.benchmarks

import org.junit.jupiter.api.Assumptions.assumeTrue
import serverbench.testing.ProcessResult
import serverbench.testing.runProcess
import java.io.File
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration.Companion.minutes

/**
 * Runs the built `target/benchmarks.jar` as a user would, with a time bound. What each run prints (forks' stack traces
 * of runs that fail on purpose included) goes to files under target/jar-runs, kept after the run and shown only in
 * the message of an assertion that fails, so a passing IT prints nothing of it.
 */
object Jar {
    val path: File = File(System.getProperty("serverbench.jar") ?: "target/benchmarks.jar").absoluteFile

    /** target/jar-runs: emptied once per test JVM, so what is there is this build's. */
    private val outputs: File by lazy {
        File(path.parentFile, "jar-runs").apply {
            deleteRecursively()
            mkdirs()
        }
    }
    private val runs = AtomicInteger()

    /** A new pair of files for the output of a run of [args], named after its number and its first argument. */
    fun outputFiles(vararg args: String): Pair<File, File> {
        val first = args.firstOrNull().orEmpty().replace(Regex("[^\\w.-]+"), "_").take(60)
        val name = "%03d-%s".format(runs.incrementAndGet(), first)
        return File(outputs, "$name.out") to File(outputs, "$name.err")
    }

    /** A started jar and where its output goes. */
    class Started(val process: Process, val out: File, val err: File)

    /**
     * The steady-state warmup runs in every run here, bounded: these runs check behaviour, not figures, and an
     * unsteady 2-core CI machine must not spend the full default limit on each. A caller's own value comes later and
     * wins.
     */
    val BOUNDED_WARMUP = listOf("-Dserverbench.warmupMaxSeconds=8")

    /** [jvmArgs] go to the launcher's JVM, before `-jar` (e.g. `-Dserverbench.*`, which it forwards to the forks). */
    fun run(
        vararg args: String,
        java: String = currentJava(),
        minutes: Long = 5,
        jvmArgs: List<String> = emptyList(),
    ): ProcessResult {
        check(path.isFile) { "$path not built: run mvn package first" }
        return runProcess(
            listOf(java) + BOUNDED_WARMUP + jvmArgs + listOf("-jar", path.path) + args,
            outputTo = outputFiles(*args),
            timeout = minutes.minutes,
            name = "benchmarks.jar ${args.joinToString(" ")}",
        )
    }

    /**
     * `scripts/<name>` with [args], without the steady-state warmup (these runs check behaviour, not figures; a
     * suite's own warmup limit on the command line is bounded all the same), its output kept like [run]'s.
     */
    fun script(name: String, vararg args: String): ProcessResult = runProcess(
        listOf("bash", "scripts/$name") + args,
        env = mapOf("JAVA_TOOL_OPTIONS" to "-Dserverbench.warmup=off"),
        outputTo = outputFiles(name, *args),
        timeout = 5.minutes,
        name = "scripts/$name",
    )

    /** Starts the jar without waiting, its output to [Started.out] and [Started.err]; the caller stops it. */
    fun start(vararg args: String, java: String = currentJava(), jvmArgs: List<String> = emptyList()): Started {
        check(path.isFile) { "$path not built: run mvn package first" }
        val (out, err) = outputFiles(*args)
        val process = ProcessBuilder(listOf(java) + BOUNDED_WARMUP + jvmArgs + listOf("-jar", path.path) + args)
            .redirectOutput(out).redirectError(err).start()
        return Started(process, out, err)
    }

    fun currentJava(): String = File(System.getProperty("java.home"), "bin/java").path

    private val toldNoNewerJava = AtomicBoolean()

    /**
     * [newerJava], or the test is skipped with where it looked: in the test report and once on the console, so a
     * machine with JDK 17 alone sees what did not run (docs/testing.md, "Skip rules").
     */
    fun assumeNewerJava(): String {
        val java = newerJava()
        val why = "skipped: no JDK >= 21 found (set SERVERBENCH_NEW_JDK to its home, or install one under " +
            "/usr/lib/jvm or /opt/java)"
        if (java == null && toldNoNewerJava.compareAndSet(false, true)) {
            println("serverbench tests: newer-JDK runs $why")
        }
        assumeTrue(java != null, why)
        return java!!
    }

    /** The newest JDK >= 21 installed beside this one (e.g. /usr/lib/jvm/temurin-25-jdk-amd64), if any. */
    fun newerJava(): String? {
        val roots = listOfNotNull(System.getenv("SERVERBENCH_NEW_JDK"), "/usr/lib/jvm", "/opt/java")
        val candidates = roots.map(::File).flatMap { root ->
            if (File(root, "bin/java").isFile) listOf(root) else root.listFiles()?.toList() ?: emptyList()
        }
        return candidates.mapNotNull { home ->
            val release = File(home, "release").takeIf { it.isFile }?.readText() ?: return@mapNotNull null
            val version =
                Regex("JAVA_VERSION=\"(\\d+)").find(release)?.groupValues?.get(1)?.toInt() ?: return@mapNotNull null
            val java = File(home, "bin/java")
            if (version >= 21 && java.canExecute()) version to java.path else null
        }.maxByOrNull { it.first }?.second
    }
}
