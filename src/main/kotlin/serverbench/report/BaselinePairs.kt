package serverbench.report

/** What a report against a baseline says about its pairs of rows (same benchmark and parameters) beside the tables. */
internal object BaselinePairs {
    /** Baseline rows with no row of the same key in [head]: named, up to five. */
    fun gone(head: List<BenchmarkResult>, base: List<BenchmarkResult>): String {
        val gone = base.filter { b -> head.none { it.key == b.key } }
        if (gone.isEmpty()) return ""
        return "\n${gone.size} baseline rows have no counterpart here: " +
            gone.take(5).joinToString("; ") { describe(it) } +
            (if (gone.size > 5) "; and ${gone.size - 5} more" else "") + ".\n"
    }

    /** One warning line for the pairs whose runs used other numbers of client threads ([ClientThreads]), or null. */
    fun clientThreads(head: List<BenchmarkResult>, base: List<BenchmarkResult>): String? {
        val baseByKey = base.associateBy { it.key }
        val differing = head.mapNotNull { run ->
            val old = baseByKey[run.key] ?: return@mapNotNull null
            ClientThreads.differ(listOf(old), listOf(run))?.let { describe(run) to it }
        }
        return ClientThreads.warning(differing, "baseline against this run")
    }

    private fun describe(r: BenchmarkResult) = "${r.family}.${r.variant} (${r.params.entries.joinToString(", ") {
        "${it.key}=${it.value}"
    }})"
}
