package serverbench

import java.io.File

/**
 * References in words, which no link checker sees ([DocsTest]): a section named in quotes after the page that holds it
 * (`README, "Section"`, `README's "Section"`, `docs/tls.md, "Handshakes"`) must be a heading of that page, and a
 * file of the repository named by its path (`docs/x.md`, `scripts/x`, `benchmarks/x.suite`, `.ci/run` …) must exist.
 * A Kotlin string split over lines (`"… (README, " +` then `"\"Section\")"`) and a comment wrapped over lines are
 * read as one text, as the user reads them.
 */
object DocReferences {
    private const val PAGE = """(?:main README|README|docs/[\w-]+\.md|jmh-results/README\.md|profiles/README\.md)"""
    private val section = Regex("""(?<![\w/.-])($PAGE)`?(?:,|'s|’s)\s+"([^"]+)"""")
    private val path = Regex(
        """(?<![\w/.-])(docs/[\w.-]+\.md|scripts/[\w-]+|benchmarks/[\w.-]+\.suite|jmh-results/README\.md|""" +
            """profiles/README\.md|\.ci/run|\.github/workflows/[\w.-]+\.yml)""",
    )
    private val heading = Regex("""^#{1,6} (.*)$""")

    /**
     * Every text file a user or a contributor reads, under [root]; not this checker and its test, whose examples and
     * planted references point at nothing on purpose.
     */
    fun sources(root: File): List<File> {
        val top = listOf("README.md", "pom.xml", "jmh-results/README.md", "profiles/README.md", ".ci/run")
            .map { File(root, it) }
        val dirs = listOf("docs", "benchmarks", "scripts", ".github", "src").map { File(root, it) }
        val own = listOf("DocReferences.kt", "DocsTest.kt").map { File(root, "src/test/kotlin/serverbench/$it") }
        return (top + dirs.flatMap { d -> d.walkTopDown().filter { it.isFile && !binary(it) } })
            .filter { it.exists() && it !in own }
    }

    private fun binary(f: File) = f.extension in setOf("jar", "class", "png", "jks", "p12", "gz", "xz", "zip")

    /** "path:line: reference (why)" for every reference of [files] (relative to [root]) that points at nothing. */
    fun stale(root: File, files: List<File>): List<String> {
        val headings = HashMap<File, List<String>>()
        val out = ArrayList<String>()
        for (file in files) {
            val (text, lineAt) = joined(file)
            val where = { i: Int -> "${file.relativeTo(root).path}:${lineAt(i)}" }
            for (m in section.findAll(text)) {
                val named = m.groupValues[1].removePrefix("main ")
                val page = File(root, if (named == "README") "README.md" else named)
                val name = m.groupValues[2].trim()
                if (!page.exists()) {
                    out += "${where(m.range.first)}: ${m.value} (no such file)"
                } else if (headings.getOrPut(page) { headingsOf(page) }.none { same(it, name) }) {
                    out += "${where(m.range.first)}: ${m.value} (no such section in ${page.relativeTo(root).path})"
                }
            }
            for (m in path.findAll(text)) {
                if (!File(root, m.value).exists()) out += "${where(m.range.first)}: ${m.value} (no such file)"
            }
        }
        return out.distinct()
    }

    /** A heading names the section when it is the name, or the name followed by a parenthesis (`Calibration (…)`). */
    private fun same(heading: String, name: String): Boolean {
        val h = heading.replace("`", "").trim()
        val n = name.replace("`", "").trim().trimEnd('.', ',', ':')
        return h.equals(n, ignoreCase = true) || h.startsWith("$n (", ignoreCase = true)
    }

    private fun headingsOf(page: File): List<String> {
        var fenced = false
        return page.readLines().mapNotNull { line ->
            if (line.startsWith("```")) fenced = !fenced
            if (fenced) null else heading.matchEntire(line)?.groupValues?.get(1)
        }
    }

    /** The file as one line of prose (comment markers and Kotlin string joins dropped), and each offset's line. */
    private fun joined(file: File): Pair<String, (Int) -> Int> {
        val kotlin = file.extension in setOf("kt", "kts", "java")
        val starts = ArrayList<Int>()
        val text = StringBuilder()
        for (raw in file.readLines()) {
            starts += text.length
            var line = raw.trim()
            val comment = file.extension != "md" && listOf("/*", "//", "*", "#").any { line.startsWith(it) }
            if (comment) {
                line = line.removePrefix("/**").removePrefix("//").removePrefix("*").removePrefix("#")
            } else if (kotlin) {
                line = line.removeSuffix("+").trim().removePrefix("\"").removeSuffix("\"").replace("\\\"", "\"")
            }
            text.append(line.trim()).append(' ')
        }
        return text.toString() to { i: Int -> starts.indexOfLast { it <= i } + 1 }
    }
}
