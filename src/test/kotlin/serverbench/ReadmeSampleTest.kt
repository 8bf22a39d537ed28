package serverbench

import org.junit.jupiter.api.Test
import serverbench.metrics.SteadinessAdvice
import serverbench.report.LiveFindingsReport
import serverbench.report.Report
import serverbench.report.Results
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue
import kotlin.test.fail

/**
 * The README's sample output is what the report code renders today from a result file kept in the repository, so it
 * cannot go stale: a change to the report's format fails here until the README's block is rendered again (the
 * rendering is written to target/readme-sample.md to copy in).
 */
class ReadmeSampleTest {
    private val result = File("src/test/resources/readme/quick-blocking-io.json")

    /** The live findings beside it, as `scripts/bench quick` writes them: the report opens with them. */
    private val findings = LiveFindingsReport.fileFor(result)

    @Test
    fun `the README's sample is what the report code renders from its result file`() {
        val rendered = render(result)
        assertTrue(rendered.contains("## Findings, measured live"), "no live findings in the sample: ${findings.path}")
        val block = ReadmeSample.block(File("README.md").readText())
        if (block != rendered) {
            val out = File("target/readme-sample.md").apply {
                parentFile.mkdirs()
                writeText(rendered)
            }
            fail(
                "README.md's sample differs from what the report code renders from ${result.path}; copy ${out.path} " +
                    "between the README's readme-sample markers (inside the fence)",
            )
        }
    }

    @Test
    fun `a changed report format is told apart from the current one`() {
        val rendered = render(result)
        val readme = "intro\n${ReadmeSample.START} (note) -->\n```\n$rendered```\n${ReadmeSample.END}\nafter\n"
        assertEquals(rendered, ReadmeSample.block(readme))
        // One table cell printed differently (its thousands separator dropped) is a different block.
        val changed = readme.replaceFirst(Regex("""(\d),(\d{3})"""), "$1$2")
        assertTrue(changed != readme, "the sample holds no figure with a thousands separator: $rendered")
        assertTrue(ReadmeSample.block(changed) != rendered)
    }

    /** As `scripts/bench quick` renders its report: ReportMain with `-Dserverbench.suite=quick`, no charts. */
    private fun render(file: File): String {
        val before = System.getProperty(SteadinessAdvice.SUITE_PROPERTY)
        System.setProperty(SteadinessAdvice.SUITE_PROPERTY, "quick")
        try {
            val live = LiveFindingsReport.markdown(findings).replace(findings.name, "quick-<timestamp>-findings.json")
            return Report.markdown(Results.read(file), "quick-<timestamp>.json", null, null, Report.Links(live = live))
        } finally {
            if (before == null) {
                System.clearProperty(SteadinessAdvice.SUITE_PROPERTY)
            } else {
                System.setProperty(SteadinessAdvice.SUITE_PROPERTY, before)
            }
        }
    }
}

/** The README's fenced block between its readme-sample markers. */
object ReadmeSample {
    const val START = "<!-- readme-sample:start"
    const val END = "<!-- readme-sample:end -->"

    fun block(readme: String): String {
        val from = readme.indexOf(START)
        val to = readme.indexOf(END)
        check(from >= 0 && to > from) { "no readme-sample markers" }
        val inside = readme.substring(readme.indexOf('\n', from) + 1, to)
        check(inside.startsWith("```\n") && inside.endsWith("```\n")) { "the sample is not one fenced block" }
        return inside.removePrefix("```\n").removeSuffix("```\n")
    }
}
