package serverbench.report

import serverbench.metrics.Guards
import serverbench.metrics.MetricCatalogue
import serverbench.metrics.RunFiles
import serverbench.metrics.Steadiness
import serverbench.params.CpuParams
import serverbench.params.LaterParams
import serverbench.params.ParamNames
import serverbench.profile.ProfileLayout
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.io.File

/**
 * One metric of one run: score ± error (JMH's error: its 99.9 % half-interval, or for a latency percentile the larger
 * side of its per-iteration range; NaN when there is none), the interval's ends, which are not score ± error when it
 * is asymmetric (a percentile's range), and how many per-iteration values the result file holds for it (0: unknown).
 */
data class Metric(
    val score: Double,
    val error: Double,
    val unit: String,
    val low: Double = score - error,
    val high: Double = score + error,
    val samples: Int = 0,
)

/**
 * One row of a JMH result file: a benchmark method with its parameter values, its metrics, and the profiles this very
 * run made.
 */
data class BenchmarkResult(
    val benchmark: String,
    val params: Map<String, String>,
    val primary: Metric,
    val secondary: Map<String, Metric>,
    /** The files `-prof flame` wrote for this run, as its result file records them ([ProfileLayout.FIELD]). */
    val profiles: List<File> = emptyList(),
    /** The measuring JVM's version and the measurement's plan, as JMH recorded them; unknown: "" and 0. */
    val jdkVersion: String = "",
    val forks: Int = 0,
    val iterations: Int = 0,
    /** Length of one measured iteration, as JMH writes it (`5 s`). */
    val iterationTime: String = "",
    /** The files this run's forks wrote beside the result file ([RunFiles.FIELD]): latency logs, capacity steps. */
    val files: List<File> = emptyList(),
    /** The load client's own CPU quota, `-Dserverbench.clientCpus` in the forks' JVM arguments; "" without one. */
    val clientCpus: String = "",
) {
    /** `CpuBenchmark.direct` -> family `Cpu`, variant `direct`. */
    val family: String get() = benchmark.substringBeforeLast('.').substringAfterLast('.').removeSuffix("Benchmark")
    val variant: String get() = benchmark.substringAfterLast('.')

    /** Identity across two result files: the same benchmark with the same parameter values. */
    val key: String get() = benchmark + params.toSortedMap().toString()

    fun metric(name: String): Metric? = if (name == SCORE) primary else secondary[name]

    /** Open loop (`-p rate` above 0): requests on a schedule rather than one per connection at a time. */
    val openLoop: Boolean get() = (params[ParamNames.RATE]?.toDoubleOrNull() ?: 0.0) > 0

    /** The measurement guards that fired in some measured iteration (`warning.<name>` above 0). */
    val warnings: List<String> get() = secondary.filter {
        it.key.startsWith(Guards.WARNING_PREFIX) && it.value.score > 0
    }.keys.map { it.removePrefix(Guards.WARNING_PREFIX) }

    /** `warning.notSteady` above 0: throughput still changed while measured; its figures must not be compared. */
    val notSteady: Boolean get() = (secondary[NOT_STEADY]?.score ?: 0.0) > 0

    /**
     * No steadiness verdict: fewer measured iterations per fork than the guard judges, so no `warning.notSteady` was
     * written. Neither steady nor not; a result file from before that rule may still carry the flag, and keeps it.
     */
    val steadinessNotJudged: Boolean
        get() = NOT_STEADY !in secondary && iterations in 1 until Steadiness.MIN_ITERATIONS

    /** The server's CPU budget, "cpus=1", "cpus=0.5, cpuset=1", or "" without one (defaults are dropped on read). */
    val budget: String get() = listOf(ParamNames.CPUS, ParamNames.CPUSET)
        .mapNotNull { p -> params[p]?.takeUnless { LaterParams.isDefault(p, it) }?.let { "$p=$it" } }.joinToString(", ")

    /**
     * The load engine that measured the row: `serverbench` (the harness), or the one its `engine` parameter names
     * (`hyperfoil`: scripts/hyperfoil ran the same workload on Hyperfoil).
     */
    val engine: String get() = params[ENGINE] ?: HARNESS

    /** Against a target (`-Dserverbench.target`): its server ran in a process of its own. */
    val remote: Boolean get() = MetricCatalogue.SERVER_REMOTE.name in secondary

    /** `heap.allocLowerBound` above 0: `heap.allocPerReq` could not count all allocation, so it is a lower bound. */
    val allocLowerBound: Boolean get() = (secondary[MetricCatalogue.ALLOC_LOWER_BOUND.name]?.score ?: 0.0) > 0

    companion object {
        const val SCORE = MetricCatalogue.SCORE
        val NOT_STEADY = MetricCatalogue.NOT_STEADY.name

        /** The parameter that names another load engine than the harness's own client ([engine]). */
        const val ENGINE = "engine"
        const val HARNESS = "serverbench"
    }
}

/** Orders parameter maps by the values of [names], numbers as numbers: rows and groups sort 100 before 1000. */
fun compareParams(names: Collection<String>, a: Map<String, String>, b: Map<String, String>): Int {
    for (n in names) {
        val x = a[n] ?: ""
        val y = b[n] ?: ""
        val c = if (x.toDoubleOrNull() != null && y.toDoubleOrNull() != null) {
            x.toDouble().compareTo(y.toDouble())
        } else {
            x.compareTo(y)
        }
        if (c != 0) return c
    }
    return 0
}

/** Reads JMH's `-rf json` output. */
object Results {
    /** What a table shows for a parameter added later that a row does not have: the value it meant. */
    fun absentAs(param: String): String? = LaterParams.absentAs(param)

    fun read(file: File): List<BenchmarkResult> {
        require(file.isFile) { "$file does not exist" }
        val root = try {
            JsonMapper.builder().build().readTree(file)
        } catch (e: Exception) {
            throw IllegalArgumentException("$file is not JMH JSON: ${e.message?.lineSequence()?.first()}")
        }
        require(root.isArray) { "$file is not JMH JSON (-rf json): expected an array of results" }
        return (0 until root.size()).map { i ->
            val r = root[i]
            val params = LinkedHashMap<String, String>()
            r["params"]?.properties()?.forEach { (k, v) -> params[k] = v.asString() }
            // Results from before a parameter existed do not have it: at the value that means what they meant it is
            // dropped, so a baseline from before it still pairs with today's rows.
            params.keys.removeIf { LaterParams.isDefault(it, params[it]) }
            val secondary = LinkedHashMap<String, Metric>()
            r["secondaryMetrics"]?.properties()?.forEach { (k, v) -> secondary[k] = metric(v) }
            val dir = file.absoluteFile.parentFile
            fun listed(field: String): List<File> {
                val listed = r[field]?.takeIf { it.isArray } ?: return emptyList()
                return (0 until listed.size()).map { File(dir, listed[it].asString()).normalize() }
            }
            BenchmarkResult(
                r["benchmark"].asString(), params, metric(r["primaryMetric"]), secondary, listed(ProfileLayout.FIELD),
                r["jdkVersion"]?.asString() ?: "", r["forks"]?.asInt() ?: 0, r["measurementIterations"]?.asInt() ?: 0,
                r["measurementTime"]?.asString() ?: "", listed(RunFiles.FIELD), clientCpus(r["jvmArgs"]),
            )
        }
    }

    /** The value of `-Dserverbench.clientCpus` among a row's `jvmArgs` (the launcher passes it to each fork), or "". */
    private fun clientCpus(jvmArgs: JsonNode?): String {
        val flag = "-D${CpuParams.CLIENT_CPUS_PROPERTY}="
        val args = jvmArgs?.takeIf { it.isArray } ?: return ""
        return (0 until args.size()).map { args[it].asString() }.lastOrNull { it.startsWith(flag) }
            ?.removePrefix(flag).orEmpty()
    }

    private fun metric(node: JsonNode): Metric {
        val score = number(node["score"])
        val error = number(node["scoreError"])
        val unit = node["scoreUnit"]?.asString() ?: ""
        val ends = node["scoreConfidence"]?.takeIf { it.isArray && it.size() == 2 }
            ?.let { doubleArrayOf(number(it[0]), number(it[1])) }?.takeIf { e -> e.all { it.isFinite() } }
        // One list of per-iteration values per fork.
        val raw = node["rawData"]?.takeIf { it.isArray }
        val samples = (0 until (raw?.size() ?: 0)).sumOf { raw!![it].takeIf { f -> f.isArray }?.size() ?: 0 }
        // Without an error JMH writes the score (or NaN) as both ends: no interval either way.
        if (error.isNaN() || ends == null) return Metric(score, error, unit, samples = samples)
        return Metric(score, error, unit, ends[0], ends[1], samples)
    }

    /** JMH writes NaN as the string "NaN". */
    private fun number(node: JsonNode?): Double = when {
        node == null || node.isNull -> Double.NaN
        node.isNumber -> node.asDouble()
        else -> node.asString().toDoubleOrNull() ?: Double.NaN
    }
}
