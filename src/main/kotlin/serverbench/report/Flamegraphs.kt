package serverbench.report

import serverbench.profile.ProfileLayout
import serverbench.profile.ProfileLayout.dir
import serverbench.profile.ProfileLayout.event
import serverbench.profile.ProfileLayout.htmlTitle
import serverbench.profile.ProfileLayout.title
import java.io.File

/**
 * The report's side of flamegraphs: links to a run's own graphs, and differential graphs of two runs
 * ([ProfileLayout] has where they are).
 */
object Flamegraphs {
    /** Paths of [run]'s own HTML flamegraphs, relative to [linkBase] (where the markdown is read from). */
    fun links(run: BenchmarkResult, linkBase: File): List<String> =
        run.profiles.filter { it.extension == "html" && it.isFile }.map { relative(it, linkBase) }

    /**
     * Differential flamegraphs (baseline -> head) for every event both runs recorded, written under [out] by
     * async-profiler's converter from the `.collapsed` files (the forks of one run summed); returns their paths
     * relative to [linkBase].
     */
    fun diff(base: BenchmarkResult, head: BenchmarkResult, out: File, linkBase: File): List<String> {
        fun collapsed(run: BenchmarkResult) =
            run.profiles.filter { it.extension == "collapsed" && it.isFile }.groupBy(::event)
        val before = collapsed(base)
        return collapsed(head).toSortedMap().mapNotNull { (event, headFiles) ->
            val baseFiles = before[event] ?: return@mapNotNull null
            val target = File(dir(out, head.benchmark, head.params), "$event-diff.html")
            target.parentFile.mkdirs()
            val b = concatenated(baseFiles, File(target.parentFile, ".$event-base.collapsed"))
            val h = concatenated(headFiles, File(target.parentFile, ".$event-head.collapsed"))
            // The converter prints a progress line on stdout, where the markdown goes.
            val stdout = System.out
            System.setOut(System.err)
            try {
                val title = htmlTitle(title(head.benchmark, head.params, event, "base → head"))
                one.convert.Main.main(arrayOf("--diff", "--title", title, b.path, h.path, target.path))
            } finally {
                System.setOut(stdout)
                b.delete()
                h.delete()
            }
            relative(target, linkBase)
        }
    }

    /** Collapsed stacks add up line by line: one file of several forks' samples. */
    private fun concatenated(files: List<File>, into: File): File {
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

    private fun relative(file: File, base: File): String =
        file.absoluteFile.normalize().relativeTo(base.absoluteFile.normalize()).invariantSeparatorsPath
}
