package serverbench.profile

import java.io.File

/**
 * async-profiler's converter (the jfr-converter artifact, `jfrconv`) on collapsed stacks: an HTML flamegraph of one
 * profile, or the differential graph of two. Collapsed stacks add up line by line, so several processes' or forks'
 * files make one profile by concatenation.
 */
object Converter {
    /** [collapsed] as an HTML flamegraph at [html], headed [title] (already [ProfileLayout.htmlTitle]d). */
    fun flamegraph(collapsed: File, html: File, title: String) =
        convert(arrayOf("--title", title, collapsed.path, html.path))

    /** The differential flamegraph [base] → [head] at [html]: each frame coloured by how its share changed. */
    fun diff(base: File, head: File, html: File, title: String) =
        convert(arrayOf("--diff", "--title", title, base.path, head.path, html.path))

    /** [files] one after another into [into]: one profile of all their samples. */
    fun concatenated(files: List<File>, into: File): File {
        into.bufferedWriter().use { w ->
            files.forEach { f ->
                f.forEachLine {
                    w.write(it)
                    w.newLine()
                }
            }
        }
        return into
    }

    private fun convert(args: Array<String>) {
        // The converter prints a progress line on stdout, where a report's or a comparison's markdown goes.
        val stdout = System.out
        System.setOut(System.err)
        try {
            one.convert.Main.main(args)
        } finally {
            System.setOut(stdout)
        }
    }
}
