package serverbench

import org.junit.jupiter.api.Test
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * A default the docs quote is the code's: pr-compare's default run and its `--suite` (docs/pull-requests.md once said
 * `quick` where the script runs one CPU row), and a suite's duration wherever a page names the suite with a time (the
 * suite file's `duration:`, which `scripts/bench --list` prints; dated runs live on docs/measurements.md instead).
 */
class DocDefaultsTest {
    private val pullRequests = File("docs/pull-requests.md").readText()

    @Test
    fun `pr-compare's default run is the one docs-pull-requests-md gives, and no suite is its default`() {
        val script = File("scripts/pr-compare").readText()
        val args = Regex("""^default_args=\((.*)\)$""", RegexOption.MULTILINE).find(script)!!.groupValues[1]
        val row = Regex("""^\| nothing \(or JMH options alone\) \| `([^`]+)`""", RegexOption.MULTILINE)
            .find(pullRequests)?.groupValues?.get(1)
        assertEquals(args, row)
        val suiteRow = pullRequests.lines().single { it.startsWith("| `--suite NAME\\|FILE` |") }
        val suites = File("benchmarks").list()!!.map { it.removeSuffix(".suite") }
        val named = Regex("""default[^|]*?`([\w-]+)`""").findAll(suiteRow).map { it.groupValues[1] }.toList()
        assertEquals(emptyList(), named.filter { it in suites }, suiteRow)
    }

    @Test
    fun `a page that names a suite with a time quotes the suite file's duration`() {
        val durations = File("benchmarks").listFiles { f -> f.extension == "suite" }!!.associate { f ->
            f.nameWithoutExtension to f.readLines().first { it.startsWith("duration:") }.substringAfter(':').trim()
        }
        assertTrue(durations.size > 10 && durations.values.all { it.isNotEmpty() }, "$durations")
        val timed = Regex("""scripts/bench ([\w-]+)`?[^.|\n]{0,60}?\b(\d+(?: 1/2)? min)\b""")
        val pages = listOf(File("README.md")) + File("docs").listFiles { f -> f.extension == "md" }!!
            .filter { it.name != "measurements.md" }
        val wrong = pages.flatMap { page ->
            timed.findAll(page.readText()).mapNotNull { m ->
                val (suite, time) = m.destructured
                durations[suite]?.takeIf { it != time }?.let { "${page.path}: $suite: $time, its file says $it" }
            }.toList()
        }
        assertEquals(emptyList(), wrong)
    }
}
