package serverbench.hyperfoil

import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.io.File
import java.util.Properties
import java.util.TreeMap

/**
 * A Hyperfoil controller's statistics of a run (`all.json`: its CLI's `export -f json`, or `run/<id>/all.json` under
 * the controller's root directory; schema http://hyperfoil.io/run-schema/v3.0, Hyperfoil 0.25.2) read as the in-VM
 * runner's [RunSummary], so that a run on many hosts folds into the harness's JSON the same way ([HyperfoilRow]).
 * The per-second series of the measured phase give the iterations' req/s, as in-VM.
 */
object AllJson {
    private val mapper = JsonMapper.builder().build()

    /** Throws [IllegalArgumentException] (one line) when [file] is not such a file. */
    fun read(file: File): RunSummary {
        val root = try {
            mapper.readTree(file)
        } catch (e: Exception) {
            throw IllegalArgumentException("$file is not JSON: ${e.message?.lineSequence()?.first()}")
        }
        require(root.isObject && root["stats"]?.isArray == true) {
            "$file is not a Hyperfoil run's statistics (all.json, with a \"stats\" array)"
        }
        val out = Properties()
        val failures = root["failures"]?.values().orEmpty().map {
            "SLA not met in phase ${it["phase"]?.asString()}: ${it["message"]?.asString()}"
        }
        val errors = root["info"]?.get("errors")?.values().orEmpty().map { it["msg"]?.asString() ?: it.toString() }
        val cancelled = root["info"]?.get("cancelled")?.asBoolean() == true
        (failures + errors + listOfNotNull("the run was cancelled".takeIf { cancelled })).firstOrNull()?.let {
            out["failure"] = it
        }
        val entries = root["stats"].values().groupBy { it["phase"]?.asString() ?: it["name"].asString() }
        for ((phase, stats) in entries) summarise(phase, stats, out)
        return RunSummary(out)
    }

    private fun summarise(phase: String, stats: List<JsonNode>, out: Properties) {
        val p = "phase.$phase"
        fun sum(field: String) = stats.sumOf { it["total"]["summary"][field]?.asLong() ?: 0 }
        for (field in listOf("requestCount", "responseCount", "invalid", "connectionErrors", "requestTimeouts")) {
            val key = mapOf("requestCount" to "requests", "responseCount" to "responses")[field] ?: field
            out["$p.$key"] = sum(field).toString()
        }
        out["$p.internalErrors"] = sum("internalErrors").toString()
        out["$p.blockedNanos"] = sum("blockedTime").toString()
        // One request per scenario here, so one metric per phase: its histogram's figures are the phase's.
        val summary = stats.first()["total"]["summary"]
        out["$p.latency.meanNanos"] = summary["meanResponseTime"].asLong().toString()
        out["$p.latency.maxNanos"] = summary["maxResponseTime"].asLong().toString()
        val percentiles = summary["percentileResponseTime"]
        for (q in listOf("50", "90", "99", "99.9")) {
            val value = percentiles?.properties()?.firstOrNull { it.key.toDouble() == q.toDouble() }?.value
            if (value != null) out["$p.latency.p$q.nanos"] = value.asLong().toString()
        }
        val start = stats.minOf { it["total"]["start"].asLong() }
        val seconds = TreeMap<Int, LongArray>()
        for (entry in stats) {
            for (s in entry["series"].values()) {
                val second = ((s["startTime"].asLong() - start) / 1000).toInt()
                val responses = s["responseCount"].asLong()
                val acc = seconds.getOrPut(second) { LongArray(3) }
                acc[0] += responses - s["invalid"].asLong()
                acc[1] += responses
                acc[2] += s["meanResponseTime"].asLong() * responses
            }
        }
        out["$p.seconds"] = seconds.entries.joinToString(",") { (s, a) -> "$s:${a[0]}:${a[1]}:${a[2]}" }
    }
}
