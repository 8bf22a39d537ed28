package serverbench.report

import serverbench.metrics.MetricCatalogue
import serverbench.params.ParamNames

/**
 * How many client threads a row's load ran on. `-p clientThreads=auto` resolves on the machine that runs it (one per 4
 * processors, `LoadSplit.auto`) and is left out of result keys ([serverbench.params.LaterParams]), so a row and its
 * baseline can pair a 1-thread run with an N-thread one under one key; the count each used is its `client.threads`
 * figure, which a comparison checks before it reads the two as one load.
 */
object ClientThreads {
    val METRIC = MetricCatalogue.CLIENT_THREADS.name

    /** The parameter: where two configurations set it on purpose, their counts differ by design. */
    const val PARAM = ParamNames.CLIENT_THREADS

    /** The count [run] used; null where its result file does not say (older results, another engine's agents). */
    fun of(run: BenchmarkResult): Int? = run.secondary[METRIC]?.score?.takeIf { it.isFinite() && it >= 1 }?.toInt()

    /** "1 against 4" where [base] and [head] (one row's runs of each side) used other counts; null when they agree. */
    fun differ(base: Collection<BenchmarkResult>, head: Collection<BenchmarkResult>): String? {
        val b = base.mapNotNull(::of).distinct().sorted()
        val h = head.mapNotNull(::of).distinct().sorted()
        if (b.isEmpty() || h.isEmpty() || b == h) return null
        return "${b.joinToString("/")} against ${h.joinToString("/")}"
    }

    /**
     * The one warning line for the rows in [differing] (a row's name to [differ]'s text), or null for none; [sides]
     * says what the two counts are, "base against head".
     */
    fun warning(differing: List<Pair<String, String>>, sides: String): String? {
        if (differing.isEmpty()) return null
        val rows = if (differing.size == 1) "1 row ran" else "${differing.size} rows ran"
        val shown = differing.take(MOST_NAMED).joinToString("; ") { (row, counts) -> "$row $counts" } +
            (if (differing.size > MOST_NAMED) "; and ${differing.size - MOST_NAMED} more" else "")
        return "Warning: $rows on other numbers of client threads ($sides, `$METRIC`): $shown. Each is a different " +
            "load, so its change is not the code's alone; `-p clientThreads=auto` counts this machine's processors: " +
            "give both sides one count (`-p clientThreads=N`)."
    }

    private const val MOST_NAMED = 5
}
