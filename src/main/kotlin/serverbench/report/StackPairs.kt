package serverbench.report

import serverbench.metrics.MetricCatalogue
import serverbench.report.Leads.Noise
import serverbench.params.ParamNames as N

/**
 * The stack question with the variant held fixed, for a finding's second line: per pair of stacks, on which one each
 * variant served more req/s and lower p99, named only where the lead is beyond noise ([Leads.noise]).
 */
internal object StackPairs {
    private val P99 = MetricCatalogue.P99.name
    private const val SERVER = N.SERVER

    /**
     * "same variant, netty vs tomcat: more req/s on tomcat (direct 17×), within noise (nonBlocking); ...": the stack
     * question with the variant held fixed, a lead named only where it is beyond noise; one such line per pair of
     * stacks (jetty vs netty, jetty vs tomcat, netty vs tomcat). Only where a group has more rows than the one pair
     * its first line already compares.
     */
    fun lines(steady: List<BenchmarkResult>, rows: Int): List<String> {
        val servers = steady.mapNotNull { it.params[SERVER] }.distinct().sorted()
        if (servers.size < 2 || rows <= 2) return emptyList()
        val variants = steady.groupBy { it.variant to it.engine }.toSortedMap(compareBy({ it.first }, { it.second }))
            .values
        return servers.flatMapIndexed { i, x -> servers.drop(i + 1).mapNotNull { y -> stackPair(variants, x, y) } }
    }

    private fun stackPair(variants: Collection<List<BenchmarkResult>>, x: String, y: String): String? {
        val pairs = variants.mapNotNull { v ->
            val a = v.find { it.params[SERVER] == x }
            val b = v.find { it.params[SERVER] == y }
            if (a != null && b != null) a to b else null
        }
        val parts = listOfNotNull(tally(pairs, BenchmarkResult.SCORE, "more req/s"), tally(pairs, P99, "lower p99"))
        if (parts.isEmpty()) return null
        return "same variant, $x vs $y: ${parts.joinToString("; ")}"
    }

    private fun tally(pairs: List<Pair<BenchmarkResult, BenchmarkResult>>, metric: String, what: String): String? {
        val higherBetter = Leads.higherBetter(metric)
        // Per variant: "on <the stack ahead>" where beyond noise, with by how much; else why no stack is named.
        val outcomes = pairs.mapNotNull { (a, b) ->
            val x = a.metric(metric)?.takeIf { it.score.isFinite() } ?: return@mapNotNull null
            val y = b.metric(metric)?.takeIf { it.score.isFinite() } ?: return@mapNotNull null
            val aAhead = (x.score >= y.score) == higherBetter
            when (Leads.noise(metric, x, y)) {
                Noise.BEYOND -> Outcome(
                    "on ${(if (aAhead) a else b).params[SERVER]}",
                    Leads.variant(a),
                    if (aAhead) {
                        Leads.relative(
                            x.score,
                            y.score,
                            higherBetter,
                        )
                    } else {
                        Leads.relative(y.score, x.score, higherBetter)
                    },
                )

                Noise.APART -> Outcome(
                    if (Significance.apartP(x, y).isNaN()) APART_UNKNOWN else APART,
                    Leads.variant(a),
                    null,
                )

                Noise.WITHIN -> Outcome(WITHIN, Leads.variant(a), null)

                Noise.NO_INTERVAL -> Outcome(NO_INTERVAL, Leads.variant(a), null)
            }
        }
        if (outcomes.isEmpty()) return null
        val last = listOf(APART, APART_UNKNOWN, WITHIN, NO_INTERVAL)
        return "$what " + outcomes.groupBy { it.bucket }.entries
            .sortedWith(compareBy({ last.indexOf(it.key) }, { -it.value.size }, { it.key }))
            .joinToString(", ") { (bucket, items) ->
                // Up to three variants by name; more by count, as a long list would not fit the line.
                val which = if (items.size > 3) {
                    "${items.size} of ${outcomes.size} variants"
                } else {
                    items.joinToString(", ") { listOfNotNull(it.variant, it.by).joinToString(" ") }
                }
                "$bucket ($which)"
            }
    }

    private class Outcome(val bucket: String, val variant: String, val by: String?)

    private const val APART = "ranges apart at p > 0.1 %"
    private const val APART_UNKNOWN = "ranges apart, iterations unknown"
    private const val WITHIN = "within noise"
    private const val NO_INTERVAL = "no interval"
}
