package serverbench.compare

import serverbench.compare.ForkOrder.Side
import serverbench.metrics.MetricCatalogue
import serverbench.metrics.MetricSpec
import serverbench.report.BenchmarkResult
import serverbench.report.ClientThreads

/**
 * The rows of a comparison: each benchmark × parameters measured on both sides, for each compared metric, with the
 * fork means of each side and what [ForkStatistics] makes of them.
 */
class Comparison(
    val rows: List<Row>,
    /** Benchmarks left out because a side ran several values of a side's parameter: one line each, saying why. */
    val notCompared: List<String> = emptyList(),
    /** One line naming the rows whose sides ran on other numbers of client threads ([ClientThreads]), or null. */
    val clientThreads: String? = null,
) {

    /** One figure of one benchmark × parameters: base's and head's fork means. */
    class Row(
        val benchmark: String,
        val params: Map<String, String>,
        /** One of the [MetricCatalogue]'s headlines. */
        val metric: MetricSpec,
        val unit: String,
        val base: DoubleArray,
        val head: DoubleArray,
        /** Measured iterations per fork (the most any fork of this row had). */
        val iterations: Int,
        /** Forks of either side whose measurement guards said "not steady". */
        val notSteadyForks: Int,
    ) {
        val baseMean = ForkStatistics.mean(base)
        val headMean = ForkStatistics.mean(head)
        val ratio = ForkStatistics.ratio(base, head)
        val interval = ForkStatistics.ratioInterval(base, head)
        val p = ForkStatistics.mannWhitney(base, head)
        val significant = ForkStatistics.significant(p, interval)
        val minimumDetectable = ForkStatistics.minimumDetectable(base, head)

        /** The chance this row would be marked were the sides the same: the exact test's real level at its forks. */
        val level = ForkStatistics.markingLevel(base.size, head.size)
        val verdict: String = when {
            !significant -> "~"
            (ratio > 1) == (metric.better == MetricSpec.Better.HIGHER) -> if (metric.primary) "faster" else "better"
            else -> if (metric.primary) "slower" else "worse"
        }
    }

    companion object {
        /**
         * Pairs the forks' results by benchmark and parameters, leaving out [sideParams], the parameters the two sides
         * set differently (`-p limit=10000` against `-p limit=10500` compare as one row). A side that ran several
         * values of them (a parameter only the other side sets runs at all its defaults here) is not compared: its
         * configurations would pool into one row.
         */
        fun of(forks: List<Pair<Side, List<BenchmarkResult>>>, sideParams: Set<String>): Comparison {
            val keyed = forks.flatMap { (side, runs) ->
                runs.map { run ->
                    Triple(
                        side,
                        run,
                        run.benchmark + run.params.filterKeys { it !in sideParams }.toSortedMap(),
                    )
                }
            }
            val rows = ArrayList<Row>()
            val notCompared = ArrayList<String>()
            val threads = ArrayList<Pair<String, String>>()
            for ((_, members) in keyed.groupBy { it.third }) {
                val first = members.first().second
                val base = members.filter { it.first == Side.BASE }.map { it.second }
                val head = members.filter { it.first == Side.HEAD }.map { it.second }
                if (base.isEmpty() || head.isEmpty()) continue
                val params = first.params.filterKeys { it !in sideParams }
                val pooled = pooled(Side.BASE, base, sideParams) ?: pooled(Side.HEAD, head, sideParams)
                val name = first.benchmark.substringAfterLast(".benchmarks.")
                val shown = if (params.isEmpty()) "" else " (${params.entries.joinToString(", ")})"
                if (pooled != null) {
                    notCompared += "$name$shown: not compared, $pooled"
                    continue
                }
                // Unless the sides differ in it on purpose, two counts are two loads under one key.
                if (ClientThreads.PARAM !in sideParams) {
                    ClientThreads.differ(base, head)?.let { threads += "$name$shown" to it }
                }
                rows += metricRows(members.map { it.second }, params, base, head)
            }
            return Comparison(rows, notCompared, ClientThreads.warning(threads, "base against head"))
        }

        /** A row for each headline metric both sides measured, of one benchmark's runs ([members]) with [params]. */
        private fun metricRows(
            members: List<BenchmarkResult>,
            params: Map<String, String>,
            base: List<BenchmarkResult>,
            head: List<BenchmarkResult>,
        ): List<Row> {
            val first = members.first()
            return MetricCatalogue.headlines.mapNotNull { metric ->
                val b = base.mapNotNull { it.metric(metric.name)?.score }.filter { it.isFinite() }
                val h = head.mapNotNull { it.metric(metric.name)?.score }.filter { it.isFinite() }
                if (b.isEmpty() || h.isEmpty()) return@mapNotNull null
                Row(
                    first.benchmark,
                    params,
                    metric,
                    first.metric(metric.name)?.unit ?: "",
                    b.toDoubleArray(),
                    h.toDoubleArray(),
                    members.maxOf { it.iterations },
                    members.count { it.notSteady },
                )
            }
        }

        /** Why [runs] of one side cannot make one row: several settings of [sideParams]; null when one. */
        private fun pooled(side: Side, runs: List<BenchmarkResult>, sideParams: Set<String>): String? {
            val settings = runs.map { run -> run.params.filterKeys { it in sideParams }.toSortedMap() }.distinct()
            if (settings.size < 2) return null
            val ran = settings.joinToString(" and ") { it.entries.joinToString(", ") }
            val names = settings.first().keys.joinToString()
            return "as ${side.name.lowercase()} ran $ran (they would pool into one row): " +
                "give each side one value of $names"
        }
    }
}
