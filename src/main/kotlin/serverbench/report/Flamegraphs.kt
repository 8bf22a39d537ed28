package serverbench.report

import serverbench.profile.Converter
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
     * async-profiler's converter ([Converter]) from the `.collapsed` files (the forks of one run summed); returns
     * their paths relative to [linkBase].
     */
    fun diff(base: BenchmarkResult, head: BenchmarkResult, out: File, linkBase: File): List<String> {
        fun collapsed(run: BenchmarkResult) =
            run.profiles.filter { it.extension == "collapsed" && it.isFile }.groupBy(::event)
        val before = collapsed(base)
        return collapsed(head).toSortedMap().mapNotNull { (event, headFiles) ->
            val baseFiles = before[event] ?: return@mapNotNull null
            val target = File(dir(out, head.benchmark, head.params), "$event-diff.html")
            target.parentFile.mkdirs()
            val b = Converter.concatenated(baseFiles, File(target.parentFile, ".$event-base.collapsed"))
            val h = Converter.concatenated(headFiles, File(target.parentFile, ".$event-head.collapsed"))
            try {
                Converter.diff(b, h, target, htmlTitle(title(head.benchmark, head.params, event, "base → head")))
            } finally {
                b.delete()
                h.delete()
            }
            relative(target, linkBase)
        }
    }

    private fun relative(file: File, base: File): String =
        file.absoluteFile.normalize().relativeTo(base.absoluteFile.normalize()).invariantSeparatorsPath
}
