package serverbench

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.testing.runProcess
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * A suite exists once, as a file in `benchmarks/`: `scripts/bench --list` and the suite table of docs/suites.md
 * are checked against the folder, and a bad suite file is refused in one line before anything starts (no jar needed
 * for that).
 */
class SuitesTest {
    private val keys =
        setOf("description", "duration", "benchmarks", "params", "properties", "timing", "findings", "capacity")

    /** name -> key -> value, as scripts/bench reads the files (a line starting with a space continues the one above).
     * */
    private val suites: Map<String, Map<String, String>> = File("benchmarks").listFiles { f ->
        f.extension == "suite"
    }!!
        .sortedBy { it.name }.associate { f ->
            val fields = LinkedHashMap<String, String>()
            var last = ""
            for (line in f.readLines().filterNot { it.isBlank() || it.trimStart().startsWith("#") }) {
                if (line[0].isWhitespace()) {
                    fields[last] += " " + line.trim()
                } else {
                    last = line.substringBefore(':')
                    fields[last] = line.substringAfter(':').trim()
                }
            }
            f.nameWithoutExtension to fields
        }

    private fun bench(vararg args: String): Triple<Int, String, String> =
        runProcess(listOf("bash", "scripts/bench") + args).let { Triple(it.exitCode, it.stdout, it.stderr) }

    @Test
    fun `every suite file has a description, a duration and a benchmark regex, and only known keys`() {
        assertTrue(suites.size >= 9, "${suites.keys}")
        for ((name, fields) in suites) {
            assertEquals(emptySet(), fields.keys - keys, name)
            for (key in listOf(
                "description",
                "duration",
                "benchmarks",
            )) {
                assertTrue(!fields[key].isNullOrBlank(), "$name: $key")
            }
        }
    }

    @Test
    fun `the suite table of docs-suites-md names every suite file, with its duration, and no other`() {
        val section = File("docs/suites.md").readText()
        val rows = Regex("""^\| `([\w-]+)` \|(.*)$""", RegexOption.MULTILINE).findAll(section)
            .associate { it.groupValues[1] to it.groupValues[2].split('|').map { c -> c.trim() } }
        assertEquals(suites.keys, rows.keys)
        // Columns after the name: what it shows, runs, full run (estimate), measured here.
        for ((name, cells) in rows) assertEquals(suites.getValue(name)["duration"], cells[2], "duration of $name")
    }

    @Test
    fun `scripts-bench --list names every suite of the folder`() {
        val (status, out, _) = bench("--list")
        assertEquals(0, status)
        val listed = out.lines().filter { it.isNotEmpty() && !it[0].isWhitespace() }.map { it.substringBefore(' ') }
        assertEquals(suites.keys.toList(), listed)
        for ((name, fields) in suites) assertTrue(out.contains("$name ".padEnd(22) + "(${fields["duration"]})"), out)
        assertTrue(out.lines().all { it.length <= 120 }, out)
    }

    @Test
    fun `a bad suite is refused in one line that says what is wrong`(@TempDir dir: File) {
        val unknownKey = File(dir, "typo.suite").apply { writeText("benchmark: NoopBenchmark\n") }
        val noRegex = File(dir, "empty.suite").apply { writeText("# nothing\ndescription: no benchmarks\n") }
        val cases = mapOf(
            listOf("nosuch") to "scripts/bench: unknown suite 'nosuch'; suites: ${suites.keys.joinToString(", ")} " +
                "(or a path to a .suite file)",
            listOf(unknownKey.path) to
                "scripts/bench: ${unknownKey.path}:1: unknown key 'benchmark'; keys: description, " +
                "duration, benchmarks, params, properties, timing, findings, capacity",
            listOf(noRegex.path) to "scripts/bench: ${noRegex.path}: no 'benchmarks:' line (the JMH benchmark regex)",
            listOf(File(dir, "missing.suite").path) to
                "scripts/bench: no suite file '${File(dir, "missing.suite").path}'",
        )
        for ((args, message) in cases) {
            val (status, out, err) = bench(*args.toTypedArray())
            assertEquals(2, status, "$args: $err")
            assertEquals(message, err.trim())
            assertEquals("", out)
        }
    }

    @Test
    fun `-D options after the suite reach the launcher's JVM and replace the suite's own warmup limits`(
        @TempDir dir: File,
    ) {
        val launcher = launcherArgs(dir, "quick", "-Dserverbench.warmupMaxSeconds=60", "-i", "9")
        val beforeJar = launcher.takeWhile { it != "-jar" }
        assertTrue("-Dserverbench.warmupMaxSeconds=60" in beforeJar, "$launcher")
        assertTrue("-Dserverbench.suite=quick" in beforeJar, "$launcher")
        assertTrue(beforeJar.none { it.startsWith("-Dserverbench.warmupMaxSeconds.") }, "$launcher")
        assertTrue("-i" in launcher.dropWhile { it != "-jar" }, "$launcher")
        assertTrue(launcher.none { it.startsWith("-D") && it !in beforeJar }, "$launcher")
    }

    @Test
    fun `a -p the suite sets is replaced, and a regex after the suite narrows its rows`(@TempDir dir: File) {
        // The command of issue 55, which planned 6 runs where one was asked for.
        val launcher = launcherArgs(
            dir,
            "capacity",
            "CpuBenchmark.direct$",
            "-p",
            "server=tomcat",
            "-p",
            "objective=p99:250ms",
        )
        val values = launcher.zipWithNext().filter { it.first == "-p" }.map { it.second }
        assertEquals(listOf("objective=p99:250ms"), values.filter { it.startsWith("objective=") }, "$launcher")
        assertEquals(listOf("limit=10000", "cpus=1", "server=tomcat"), values.filterNot { it.startsWith("objective") })
        // The capacity suite's rows are live searches: LiveCapacityMain, its sides from the suite's capacity: line.
        assertEquals(listOf("--sides", "server=tomcat,netty"), launcher.dropWhile { it != "--sides" }.take(2))
        val regex = Regex(launcher[regexAt(launcher)])
        val names = listOf("CpuBenchmark.direct", "CpuBenchmark.completableFuture", "NoopBenchmark.direct")
            .map { "serverbench.benchmarks.$it" }
        assertEquals(listOf(names[0]), names.filter { regex.containsMatchIn(it) }, regex.pattern)
        // Anchored patterns still anchor, the user's and the suite's; one outside the suite matches nothing.
        val quick = Regex(
            launcherArgs(dir, "quick", "^serverbench.benchmarks.BlockingIoBenchmark.direct$").let {
                it[it.indexOf("-jar") + 2]
            },
        )
        val rows = listOf("BlockingIoBenchmark.direct", "BlockingIoBenchmark.nonBlocking", "CpuBenchmark.direct")
            .map { "serverbench.benchmarks.$it" }
        assertEquals(listOf(rows[0]), rows.filter { quick.containsMatchIn(it) }, quick.pattern)
        val outside = Regex(launcherArgs(dir, "quick", "NoopBenchmark").let { it[it.indexOf("-jar") + 2] })
        assertTrue(rows.none { outside.containsMatchIn(it) }, outside.pattern)
        assertTrue(!outside.containsMatchIn("serverbench.benchmarks.NoopBenchmark.hello"), outside.pattern)
    }

    /** Where the regex is: after the jar for the launcher, after the output file for a live capacity. */
    private fun regexAt(command: List<String>) =
        if ("-jar" in command) command.indexOf("-jar") + 2 else command.indexOf("--out") + 2

    /**
     * The launcher's command line as `scripts/bench` [args] builds it: a copy of the script beside a stand-in jar and
     * a java that only records its arguments, so nothing runs.
     */
    @Test
    fun `before the rows start, a suite with findings says the time they add, which the jar's estimate leaves out`(
        @TempDir dir: File,
    ) {
        val said = fakeRun(dir, "quick").first
        assertTrue(
            said.contains(
                "bench: after the rows, up to 150s more for the findings measured live (server=tomcat,netty)",
            ),
            said,
        )
        assertTrue(!fakeRun(dir, "capacity").first.contains("findings measured live"))
    }

    private fun launcherArgs(dir: File, vararg args: String): List<String> = fakeRun(dir, *args).second

    /** scripts/bench on a fake `java` that records its arguments: what the script said, and the launcher's command. */
    private fun fakeRun(dir: File, vararg args: String): Pair<String, List<String>> {
        val script = File(dir, "scripts/bench")
        if (!script.exists()) {
            script.parentFile.mkdirs()
            File("scripts/bench").copyTo(script)
            File("benchmarks").copyRecursively(File(dir, "benchmarks"))
            File(dir, "target").mkdirs()
            File(dir, "target/benchmarks.jar").writeText("")
        }
        val recorded = File(dir, "args").apply { delete() }
        val java = File(dir, "jdk/bin/java").apply {
            parentFile.mkdirs()
            writeText("#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" >> '${recorded.path}'\n")
            setExecutable(true)
        }
        val run = runProcess(
            listOf("bash", script.path) + args,
            env = mapOf("JAVA_HOME" to java.parentFile.parentFile.path),
            mergeErr = true,
        )
        // The first recorded command is the launcher's; the report's (-cp … ReportMain) follows only with results.
        return run.stdout to recorded.readLines().takeWhile { it != "-rff" }
    }
}
