package serverbench.testing

import java.io.File
import java.util.concurrent.TimeUnit
import kotlin.test.assertTrue
import kotlin.test.fail
import kotlin.time.Duration
import kotlin.time.Duration.Companion.minutes

/*
 * One way to run a script, git, a tool or `java` from a test and look at what it printed. The script, jar and tool
 * tests each had their own ProcessBuilder wrapper, and they differed where it matters: some read pipes one after the
 * other (a process that fills the other one hangs, and the timeout never comes), some left a timed-out process and its
 * children running.
 */

/** How a process ended and what it printed; [out] and [err] are the files that keep it, when the caller asked. */
class ProcessResult(
    val exitCode: Int,
    val stdout: String,
    val stderr: String,
    val out: File? = null,
    val err: File? = null,
) {
    override fun toString() = "exit $exitCode" + (if (out != null) " (whole output: $out, $err)" else "") +
        "\n--- stdout\n${stdout.takeLast(4000)}\n--- stderr\n${stderr.takeLast(4000)}"
}

/**
 * Runs [command] to its end. Its output goes to files, never to pipes, so no stream can fill and stall it; on
 * [timeout] the process and all its descendants are killed and the test fails, naming it ([name]) with the tail of
 * what it printed.
 *
 * @param dir the working directory; null: this JVM's (the project's root under Maven)
 * @param env variables to set in the process's environment; a null value removes the variable
 * @param mergeErr stderr into stdout, interleaved as printed ([ProcessResult.stderr] is then empty)
 * @param outputTo the files for stdout and stderr, kept after the run (e.g. `Jar.outputFiles`); null: temporary
 * files, deleted once read
 */
fun runProcess(
    command: List<String>,
    dir: File? = null,
    env: Map<String, String?> = emptyMap(),
    mergeErr: Boolean = false,
    outputTo: Pair<File, File>? = null,
    timeout: Duration = 1.minutes,
    name: String = command.joinToString(" "),
): ProcessResult {
    val (out, err) = outputTo ?: (File.createTempFile("process", ".out") to File.createTempFile("process", ".err"))
    try {
        val builder = ProcessBuilder(command).directory(dir).redirectOutput(out)
        if (mergeErr) builder.redirectErrorStream(true) else builder.redirectError(err)
        env.forEach { (key, value) ->
            if (value == null) builder.environment().remove(key) else builder.environment()[key] = value
        }
        val process = builder.start()
        if (!process.waitFor(timeout.inWholeMilliseconds, TimeUnit.MILLISECONDS)) {
            killWithDescendants(process).waitFor(10, TimeUnit.SECONDS)
            val kept = if (outputTo != null) " (whole output: $out, $err)" else ""
            fail("$name did not finish in $timeout$kept:\n${out.readText().takeLast(3000)}")
        }
        val stderr = if (mergeErr) "" else err.readText()
        return ProcessResult(process.exitValue(), out.readText(), stderr, outputTo?.first, outputTo?.second)
    } finally {
        if (outputTo == null) {
            out.delete()
            err.delete()
        }
    }
}

/** Kills [process] and every process it started (forks, servers) at once, as a test's clean-up does; [process]. */
fun killWithDescendants(process: Process): Process {
    process.descendants().forEach { it.destroyForcibly() }
    return process.destroyForcibly()
}

/** `git` with [args] in the project's repository: what it printed (stderr too), trimmed, whatever its exit code. */
fun git(vararg args: String): String = runProcess(listOf("git") + args, mergeErr = true).stdout.trim()

/**
 * Ctrl-C at the third fork, as a terminal, a cancelled workflow or its timeout sends it: [command] runs in a process
 * group of its own (`setsid`), its output in [log]; once compare says it starts its third fork (base-1 and head-1
 * have finished) the whole group gets SIGINT, and must end within 3 minutes. SIGKILL to the group if it did not.
 */
fun interruptAtThirdFork(command: List<String>, log: File, dir: File? = null, env: Map<String, String> = emptyMap()) {
    val builder = ProcessBuilder(
        listOf("setsid") + command,
    ).directory(dir).redirectErrorStream(true).redirectOutput(log)
    builder.environment().putAll(env)
    val process = builder.start()
    try {
        val deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10)
        while (!log.readText().contains("compare: fork 3 of") && process.isAlive) {
            assertTrue(System.nanoTime() < deadline, "no third fork within 10 min: ${log.readText().takeLast(3000)}")
            Thread.sleep(200)
        }
        assertTrue(process.isAlive, "ended before its third fork: ${log.readText().takeLast(3000)}")
        ProcessBuilder("kill", "-INT", "--", "-${process.pid()}").start().waitFor()
        assertTrue(process.waitFor(3, TimeUnit.MINUTES), "still running 3 min after Ctrl-C")
    } finally {
        if (process.isAlive) ProcessBuilder("kill", "-KILL", "--", "-${process.pid()}").start().waitFor()
    }
}
