package serverbench.report

import serverbench.metrics.CapacitySearch.Kind
import serverbench.metrics.CapacityStep
import serverbench.metrics.MetricCatalogue
import serverbench.metrics.RunFiles
import serverbench.params.Objective
import tools.jackson.core.json.JsonReadFeature
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.util.Locale
import serverbench.params.ParamNames as N

/**
 * One row's capacity search (`-p objective`): its outcome as the run-level results hold it ([MetricCatalogue.CAPACITY]
 * and the rest) and the steps each fork wrote beside the result file (`capacity-pid<N>.json`, [RunFiles]). Its figure
 * is never told without its [Kind]: a lower bound, or the load generator's limit, read as a capacity would be a claim
 * the search did not make.
 */
class Capacity(
    val run: BenchmarkResult,
    /** Null for a code this report does not know ([code]). */
    val kind: Kind?,
    val code: Int,
    /** The highest rate that met the objective (`capacity`), the lowest that missed it (`capacity.missedAt`). */
    val low: Double?,
    val high: Double?,
    val stepCount: Int?,
    /** `p99 ≤ 250 ms`. */
    val objective: String,
    /** Each fork's search, as its file holds it; empty when the run wrote none (no result file) or none was read. */
    val searches: List<Search>,
    /** Step files listed for the run that could not be read: said, not guessed at. */
    val unreadable: List<File> = emptyList(),
) {
    /** One fork's search. */
    class Search(
        val kind: Kind?,
        val low: Double?,
        val high: Double?,
        val why: String,
        val stepSeconds: Long?,
        val limitMillis: Double,
        val steps: List<Step>,
    )

    /** One step: its rate, its latency (NaN where the load failed), and whether it met, missed or did not count. */
    class Step(val rate: Double, val p50: Double, val p99: Double, val verdict: CapacityStep.Verdict?, val why: String)

    /** The forks' reasons the search ended as it did, each once. */
    val why: String get() = (
        searches.map { it.why }.filter { it.isNotEmpty() }.distinct() +
            unreadable.map { "steps file ${it.name} unreadable" }
        ).joinToString("; ")

    /** The rate the load generator could not keep (the last step that did not count), when the steps say. */
    val clientLimitAt: Double? get() =
        searches.flatMap { it.steps }.lastOrNull { it.verdict == CapacityStep.Verdict.CLIENT }?.rate

    /**
     * The rate the verdict may call met: with several forks the lowest any of them met (the run-level figure is their
     * highest), so a lead holds for every fork.
     */
    val met: Double? get() = if (searches.size > 1 && searches.all { it.low != null }) {
        searches.minOf { it.low!! }
    } else {
        low
    }

    /** The rate the verdict may call missed: with several forks the highest any of them missed. */
    val missed: Double? get() = if (searches.size > 1 && searches.all { it.high != null }) {
        searches.maxOf { it.high!! }
    } else {
        high
    }

    /** The kind as a reader reads it: its label, or the code this report does not know. */
    val label: String get() = kind?.label ?: "unknown outcome (capacity.kind $code)"

    /**
     * The capacity cell: the figure and its kind in one, so a copied cell keeps it: `99 (bracketed)`,
     * `≥ 1,200 (lower bound)`, `≥ 600, limited by the load generator at 2,400`, `none (not met)`.
     */
    fun cell(): String {
        val figure = low?.let { rate(it) }
        return when (kind) {
            Kind.BRACKETED -> "${figure ?: "–"} (bracketed)"

            Kind.LOWER_BOUND -> "≥ ${figure ?: "–"} (lower bound)"

            Kind.CLIENT_SATURATED -> listOfNotNull(
                figure?.let { "≥ $it" },
                "limited by the load generator" + (clientLimitAt?.let { " at ${rate(it)}" } ?: ""),
            ).joinToString(", ")

            // The rate that met and then missed is no capacity: no figure.
            Kind.INCONCLUSIVE -> "none (inconclusive)"

            Kind.NOT_MET -> "none (not met)"

            null -> "${figure ?: "–"} ($label)"
        }
    }

    /** The missed-at cell: the lowest rate that missed, or why there is none. */
    fun missedCell(): String = high?.let { rate(it) } ?: when (kind) {
        Kind.LOWER_BOUND -> "– (none missed)"
        else -> "–"
    }

    /** "99 req/s, bracketed (missed at 101)", "≥ 1,200 req/s (lower bound)": a finding's figure, kind and all. */
    fun summary(): String = when (kind) {
        Kind.BRACKETED -> "${low?.let { rate(it) } ?: "–"} req/s, bracketed (missed at ${missedCell()})"
        Kind.LOWER_BOUND -> "≥ ${low?.let { rate(it) } ?: "–"} req/s (lower bound)"
        else -> cell()
    }

    companion object {
        val KIND = MetricCatalogue.CAPACITY_KIND.name

        /** What [RunFiles.what] calls a capacity search's steps file. */
        const val FILE = "capacity"

        private val reader = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build()

        /** The row's search, or null when the row is no capacity search (it has no `capacity.kind`). */
        fun of(run: BenchmarkResult): Capacity? {
            val code = run.secondary[KIND]?.score?.takeIf { it.isFinite() }?.toInt() ?: return null
            fun figure(name: String) = run.secondary[name]?.score?.takeIf { it.isFinite() }
            val files = run.files.filter { RunFiles.what(it) == FILE }
            val read = files.associateWith { read(it) }
            return Capacity(
                run,
                Kind.of(code),
                code,
                figure(MetricCatalogue.CAPACITY.name),
                figure(MetricCatalogue.CAPACITY_HIGH.name),
                figure(MetricCatalogue.CAPACITY_STEPS.name)?.toInt(),
                objective(run) ?: "the objective",
                read.values.filterNotNull(),
                read.filterValues { it == null }.keys.toList(),
            )
        }

        /** `p99 ≤ 250 ms` for a capacity search's row (`-p objective`), null for any other row. */
        fun objective(run: BenchmarkResult): String? = run.params[N.OBJECTIVE]
            ?.let { runCatching { Objective.parse(it) }.getOrNull()?.describe() ?: it }

        /** How the findings' conditions name a capacity search's load, or null for any other row. */
        fun loop(run: BenchmarkResult): String? = objective(run)?.let { o ->
            "capacity search for $o (fixed-rate open-loop steps" +
                (run.params[N.CONCURRENCY]?.let { ", at most $it connections" } ?: "") + ")"
        }

        /** One fork's steps file, or null when it cannot be read as one. */
        fun read(file: File): Search? = runCatching {
            val root = reader.readTree(file)
            val steps = root["steps"]?.takeIf { it.isArray }
            Search(
                root["kind"]?.asString()?.let { k -> Kind.entries.firstOrNull { it.name == k } },
                number(root["low"]).takeIf { it.isFinite() },
                number(root["high"]).takeIf { it.isFinite() },
                root["why"]?.takeUnless { it.isNull }?.asString() ?: "",
                root["stepSeconds"]?.takeIf { it.isNumber }?.asLong(),
                number(root["limitMs"]),
                (0 until (steps?.size() ?: 0)).map { step(steps!![it]) },
            )
        }.getOrNull()

        private fun step(node: JsonNode) = Step(
            number(node["rate"]),
            number(node["p50Ms"]),
            number(node["p99Ms"]),
            node["verdict"]?.asString()?.let { v -> CapacityStep.Verdict.entries.firstOrNull { it.name == v } },
            node["why"]?.takeUnless { it.isNull }?.asString() ?: "",
        )

        /** A number, or NaN where it is absent, null, or written as a string ("NaN"). */
        private fun number(node: JsonNode?): Double = when {
            node == null || node.isNull -> Double.NaN
            node.isNumber -> node.asDouble()
            else -> node.asString().toDoubleOrNull() ?: Double.NaN
        }

        /** `1,200`, `99`, `12.5`: a rate as the search ran it (whole req/s from 20 up, tenths below). */
        fun rate(x: Double): String = if (x == Math.floor(x)) {
            String.format(Locale.ROOT, "%,.0f", x)
        } else {
            String.format(Locale.ROOT, "%.1f", x)
        }
    }
}
