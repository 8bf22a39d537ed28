package serverbench.compare

import serverbench.launcher.ForkArchive
import serverbench.launcher.Launcher
import serverbench.live.LiveMeasurement
import serverbench.metrics.CapacitySearch
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import tools.jackson.databind.node.ObjectNode
import java.io.File
import java.time.Instant
import java.time.ZoneOffset
import java.time.format.DateTimeFormatter

/**
 * Whether a live capacity run's figures hold across sittings: the last run of the same jar, JDK, command and settings
 * in the same folder (`jmh-results/`), row by row. A run's repeated searches all come from one sitting, so they cannot
 * see the machine move between sittings (they agreed within a few % while two runs twenty minutes apart did not:
 * docs/measurements.md#capacity-searches); a rerun can, and a row whose capacity is more than [LIMIT] apart from the
 * last run's is unstable across sittings, with no verdict.
 */
class CapacityRerun(
    /** The last run's file. */
    val file: File,
    /** When it ended, as `15:23 UTC`, or its file's name where it did not say. */
    val ended: String,
    /** Its [serverbench.live.MachineNoise] spread, if it measured one. */
    val noise: Double?,
    private val capacities: Map<String, Double?>,
) {
    /**
     * How a row compares: the last capacity, how far apart (larger ÷ smaller − 1), and whether that is too far. Both
     * are null where the last run held no capacity for the row: a row that tipped in one sitting has not been shown to
     * hold across sittings.
     */
    class Comparison(val previous: Double?, now: Double) {
        val apart: Double? = previous?.let { maxOf(now, it) / minOf(now, it) - 1 }
        val unstable: Boolean get() = apart == null || apart > LIMIT
    }

    /** [row] (a [rowKey]) against the last run's, or null where this run held no capacity or the last had no row. */
    fun compare(row: String, capacity: Double?): Comparison? {
        val now = capacity ?: return null
        if (row !in capacities) return null
        return Comparison(capacities[row], now)
    }

    /** The row's words: "within 3.1 % of the last run's 2,023 req/s (15:23 UTC)" or why it is unstable. */
    fun said(c: Comparison, noiseNow: Double?): String {
        val noises = listOfNotNull(
            noiseNow?.let { "${LiveMeasurement.percent(it)} now" },
            noise?.let { "${LiveMeasurement.percent(it)} then" },
        )
        val spread = if (noises.isEmpty()) "" else "; a memory-bound loop's windows spread ${noises.joinToString(", ")}"
        val previous = c.previous
        val apart = c.apart?.let(LiveMeasurement::percent)
        if (previous == null || apart == null) {
            return "unstable across sittings: the last run ($ended) held no capacity for this row$spread; a rerun " +
                "says whether this one holds"
        }
        val then = "the last run's ${CapacitySearch.rateText(previous)} req/s ($ended)"
        if (!c.unstable) return "within $apart of $then"
        return "unstable across sittings: $apart apart from $then, more than ${LiveMeasurement.percent(LIMIT)}" +
            "$spread; plan with the lower"
    }

    companion object {
        /** How far apart two sittings' capacities of one row may be for the row to count as holding on a rerun. */
        const val LIMIT = 0.10

        private val CLOCK = DateTimeFormatter.ofPattern("HH:mm 'UTC'").withZone(ZoneOffset.UTC)

        /** One row's key across runs: its configuration and side. */
        fun rowKey(family: String, variant: String, params: Map<String, String>, side: String): String =
            "$family.$variant ${params.toSortedMap()} $side"

        private fun rowKey(r: JsonNode): String {
            val params = r["params"]?.properties()?.associate { (k, v) -> k to v.asString() }.orEmpty()
            return rowKey(r["family"].asString(), r["variant"].asString(), params, r["side"].asString())
        }

        /**
         * What must match for two runs to be the same question: the jar's contents, the JDK, the command's own
         * arguments (not its output file) and the `serverbench.*` properties that shape the searches.
         */
        fun identity(mapper: JsonMapper, arguments: List<String>): ObjectNode {
            val o = mapper.createObjectNode()
            val classPath = System.getProperty("java.class.path").orEmpty()
            val jar = File(classPath).takeIf { it.isFile && it.name.endsWith(".jar") }
            o.put("jar", jar?.let { ForkArchive.fileHash(it).take(JAR_HASH_CHARS) } ?: classPath)
            o.put("java", System.getProperty("java.version"))
            val args = o.putArray("arguments")
            arguments.forEach { args.add(it) }
            val properties = o.putObject("properties")
            System.getProperties().stringPropertyNames().filter(Launcher::shapesTheRun).sorted()
                .forEach { properties.put(it, System.getProperty(it)) }
            return o
        }

        /** The last other `*-capacity.json` beside [out] to end (its `ended`) whose identity is [identity], or null. */
        fun find(out: File, identity: JsonNode, mapper: JsonMapper): CapacityRerun? {
            val dir = out.absoluteFile.parentFile ?: return null
            val candidates = dir.listFiles { f -> f.name.endsWith("-capacity.json") && f.name != out.name }
                ?: return null
            return candidates.mapNotNull { f ->
                val root = runCatching { mapper.readTree(f) }.getOrNull()
                root?.takeIf { it["identity"] == identity }?.let { f to it }
            }.maxByOrNull { (f, root) -> endedAt(root) ?: Instant.ofEpochMilli(f.lastModified()) }
                ?.let { (f, root) -> of(f, root) }
        }

        private fun endedAt(root: JsonNode): Instant? =
            root["ended"]?.asString()?.let { runCatching { Instant.parse(it) }.getOrNull() }

        private fun of(file: File, root: JsonNode): CapacityRerun {
            val ended = endedAt(root)?.let { CLOCK.format(it) } ?: file.name
            val noise = root["machineNoise"]?.takeIf { it.isNumber }?.asDouble()
            val capacities = root["rows"]?.associate { r ->
                rowKey(r) to r["capacity"]?.takeIf { it.isNumber }?.asDouble()
            }.orEmpty()
            return CapacityRerun(file, ended, noise, capacities)
        }

        private const val JAR_HASH_CHARS = 16
    }
}
