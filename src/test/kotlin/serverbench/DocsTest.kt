package serverbench

import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import serverbench.benchmarks.OwnCode
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * The README is the front page and `docs/` the manual (README, "The manual"): every relative link and anchor resolves
 * as GitHub renders it, the README stays short, and the catalogue names every benchmark the jar has.
 */
class DocsTest {
    private val manual = listOf(File("README.md"), File("jmh-results/README.md"), File("profiles/README.md")) +
        File("docs").listFiles { f -> f.extension == "md" }.orEmpty().sortedBy { it.name }

    @Test
    fun `every relative link and anchor of the README and the manual resolves`() {
        assertTrue(manual.size > 10, "docs/ pages: $manual")
        assertEquals(emptyList(), MarkdownLinks.dangling(manual))
    }

    @Test
    fun `a dangling link, file or anchor, is found`(@TempDir dir: File) {
        File(dir, "other.md").writeText("# Other page\n\n## A section (`-p x`)\n\n```\n## not a heading\n```\n")
        val page = File(dir, "page.md").apply {
            writeText(
                "# Page\n\nSee [it](other.md#a-section--p-x), [top](#page) and [here](https://example.org/x#y).\n" +
                    "Broken: [gone](missing.md), [no anchor](other.md#not-a-heading), [local](#nowhere).\n" +
                    "```\n[in code](ignored.md)\n```\n",
            )
        }
        assertEquals(
            listOf(
                "${page.path}:4: missing.md (no such file)",
                "${page.path}:4: other.md#not-a-heading (no such heading in other.md)",
                "${page.path}:4: #nowhere (no such heading in page.md)",
            ),
            MarkdownLinks.dangling(listOf(page)),
        )
    }

    @Test
    fun `every section and file that code or docs name in words exists`() {
        val root = File(".")
        val files = DocReferences.sources(root)
        assertTrue(files.size > 100 && File("./src/main/kotlin/serverbench/launcher/TargetCheck.kt") in files, "$files")
        assertEquals(emptyList(), DocReferences.stale(root, files))
    }

    @Test
    fun `a stale reference in words, to a section or a file, is found`(@TempDir dir: File) {
        val readme = "README"
        File(dir, "README.md").writeText("# Top\n\n## Kept section\n\n```\n## Fenced, not a heading\n```\n")
        File(dir, "docs").mkdir()
        File(dir, "docs/page.md").writeText("# Page\n\n## Calibration (2 cores)\n\nSee $readme, \"Gone section\".\n")
        File(dir, "scripts").mkdir()
        File(dir, "scripts/bench").writeText("# $readme's \"Kept section\"; docs/page.md, \"Calibration\"\n")
        File(dir, "src/Main.kt").apply {
            parentFile.mkdirs()
            writeText(
                "val a = \"see ($readme, \" +\n    \"\\\"Fenced, not a heading\\\")\"\n" +
                    "// the main $readme's \"Kept section\", scripts/bench and scripts/serve,\n" +
                    "// docs/gone.md, \"X\" and benchmarks/quick.suite; (see $readme,\n * \"Wrapped gone\")\n",
            )
        }
        assertEquals(
            listOf(
                "docs/page.md:5: $readme, \"Gone section\" (no such section in README.md)",
                "src/Main.kt:1: $readme, \"Fenced, not a heading\" (no such section in README.md)",
                "src/Main.kt:4: docs/gone.md, \"X\" (no such file)",
                "src/Main.kt:4: $readme, \"Wrapped gone\" (no such section in README.md)",
                "src/Main.kt:3: scripts/serve (no such file)",
                "src/Main.kt:4: docs/gone.md (no such file)",
                "src/Main.kt:4: benchmarks/quick.suite (no such file)",
            ),
            DocReferences.stale(dir, DocReferences.sources(dir)),
        )
    }

    @Test
    fun `the README is read in three minutes, its first command within 30 lines`() {
        val lines = File("README.md").readLines()
        assertTrue(lines.size <= 150, "README.md has ${lines.size} lines; the manual belongs in docs/")
        val firstFence = lines.indexOfFirst { it.startsWith("```") }
        assertTrue(firstFence in 0 until 30, "the first command is at line ${firstFence + 2}")
        assertTrue(
            dates.findAll(File("README.md").readText()).count() <= 2,
            "dates in README.md: dated figures go to docs/measurements.md",
        )
    }

    @Test
    fun `every page of docs is linked from the manual's index and the README's manual`() {
        val index = File("docs/README.md").readText()
        val pages = File("docs").listFiles { f -> f.extension == "md" && f.name != "README.md" }.orEmpty()
        assertEquals(emptyList(), pages.map { it.name }.sorted().filter { "]($it)" !in index })
        // The README's manual section lists every page too, grouped by task.
        val readme = File("README.md").readText().substringAfter("\n## The manual\n")
        assertEquals(emptyList(), pages.map { it.name }.sorted().filter { "](docs/$it)" !in readme })
    }

    @Test
    fun `no page reads like a design log`() {
        val phrases = listOf("predates", "this branch", "To do:")
        val found = manualPages().flatMap { page ->
            page.readLines().withIndex().flatMap { (i, line) ->
                phrases.filter { line.contains(it, ignoreCase = true) }.map { "${page.path}:${i + 1}: $it" }
            }
        }
        assertEquals(emptyList(), found)
    }

    @Test
    fun `dated figures live on few pages, the measurements page first`() {
        val dated = manualPages().filter { dates.containsMatchIn(it.readText()) }.map { it.path }
        assertTrue(File("docs/measurements.md").path in dated, "$dated")
        assertTrue(dated.size <= MAX_DATED_PAGES, "${dated.size} pages with dates, at most $MAX_DATED_PAGES: $dated")
    }

    @Test
    fun `every page of the manual opens with its task's command`() {
        // The index and the measurements page are not tasks; the others show a command before their reference.
        val pages = manualPages().filter { it.path.startsWith("docs") } - listOf("README.md", "measurements.md")
            .map { File("docs/$it") }.toSet()
        assertTrue(pages.size > 20, "$pages")
        val late = pages.filter { page -> page.readLines().take(OPENING_LINES).none { it.startsWith("```") } }
        assertEquals(emptyList(), late.map { it.path })
    }

    /** The README and the manual. */
    private fun manualPages(): List<File> = manual

    private val dates = Regex("""\b20\d\d-\d\d-\d\d\b""")

    @Test
    fun `the catalogue names every benchmark of the jar`() {
        val catalogue = File("docs/catalogue.md").readText()
        val missing = benchmarkMethods().filter { (cls, method) ->
            "`$cls`" !in catalogue || ("`$cls.$method`" !in catalogue && "`.$method`" !in catalogue)
        }
        assertEquals(emptyList(), missing.map { "${it.first}.${it.second}" })
    }

    private companion object {
        /** The measurements page and the pages whose tables need a date beside them. */
        const val MAX_DATED_PAGES = 6

        /** A page's command comes within its first lines, as wrk's, JMH's and oha's READMEs do. */
        const val OPENING_LINES = 15
    }

    /**
     * (class, method) of every `@Benchmark` of the built-in families: the compiled benchmarks package, without a
     * user's family put there ([OwnCode.isOwn]); the catalogue describes the built-in ones only.
     */
    private fun benchmarkMethods(): List<Pair<String, String>> {
        val dir = File("target/classes/serverbench/benchmarks")
        return dir.listFiles { f -> f.extension == "class" && '$' !in f.name }.orEmpty().sortedBy { it.name }
            .map { Class.forName("serverbench.benchmarks.${it.nameWithoutExtension}") }
            .filterNot { OwnCode.isOwn(it) }
            .flatMap { c ->
                c.methods.filter { it.isAnnotationPresent(org.openjdk.jmh.annotations.Benchmark::class.java) }
                    .map { c.simpleName to it.name }.sortedBy { it.second }
            }.also { assertTrue(it.size > 30, "found only $it") }
    }
}
