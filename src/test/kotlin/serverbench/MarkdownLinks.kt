package serverbench

import java.io.File

/** Relative links and anchors in markdown files, resolved as GitHub renders them ([DocsTest]). */
object MarkdownLinks {
    private val link = Regex("""\]\(([^)\s]+)\)""")
    private val heading = Regex("""^#{1,6} (.*)$""")

    /** GitHub's anchor for a heading: lower case, punctuation and symbols dropped, spaces to hyphens. */
    fun slug(text: String): String =
        text.trim().lowercase().replace(Regex("""[^\p{L}\p{N}\p{M}_\- ]"""), "").replace(' ', '-')

    /** Lines outside fenced code blocks, with their 1-based numbers. */
    private fun prose(file: File): List<Pair<Int, String>> {
        var fenced = false
        return file.readLines().mapIndexedNotNull { i, line ->
            if (line.startsWith("```")) {
                fenced = !fenced
                null
            } else if (fenced) {
                null
            } else {
                i + 1 to line
            }
        }
    }

    /** The anchors of [file]'s headings; a repeated one gets -1, -2 … as on GitHub. */
    fun anchors(file: File): Set<String> {
        val seen = HashMap<String, Int>()
        return prose(file).mapNotNull { (_, line) -> heading.matchEntire(line)?.groupValues?.get(1) }.map { text ->
            val base = slug(text)
            val n = seen.merge(base, 1, Int::plus)!! - 1
            if (n == 0) base else "$base-$n"
        }.toSet()
    }

    /** "path:line: target (why)" for every relative link of [files] whose file or heading does not exist. */
    fun dangling(files: List<File>): List<String> {
        val cache = HashMap<File, Set<String>>()
        val out = ArrayList<String>()
        for (file in files) {
            for ((n, line) in prose(file)) {
                // Inline code may show link syntax as text.
                val text = line.replace(Regex("`[^`]*`"), "``")
                for (m in link.findAll(text)) {
                    val target = m.groupValues[1]
                    if (Regex("^[a-z][a-z0-9+.-]*:").containsMatchIn(target)) continue
                    val path = target.substringBefore('#')
                    val anchor = target.substringAfter('#', "")
                    val resolved = if (path.isEmpty()) file else File(file.parentFile, path)
                    if (!resolved.exists()) {
                        out += "${file.path}:$n: $target (no such file)"
                    } else if (anchor.isNotEmpty() && resolved.extension == "md" &&
                        anchor !in cache.getOrPut(resolved.canonicalFile) { anchors(resolved) }
                    ) {
                        out += "${file.path}:$n: $target (no such heading in ${resolved.name})"
                    }
                }
            }
        }
        return out
    }
}
