package serverbench.compare

import org.openjdk.jmh.runner.options.CommandLineOptions
import serverbench.launcher.Plan
import serverbench.live.LiveMeasurement
import serverbench.live.LiveTarget
import java.io.File

/** One configuration of a suite on each value of the sides' parameter: its live targets, in the values' order. */
internal class Pairing(val targets: List<LiveTarget>, val key: Map<String, String>) {
    /** The first value's (a ratio's numerator, the head side). */
    val a: LiveTarget get() = targets[0]

    /** The second value's (the denominator, the base side). */
    val b: LiveTarget get() = targets[1]

    val family: String get() = a.benchmark.substringBeforeLast('.').substringAfterLast('.').removeSuffix("Benchmark")
    val label: String get() = "$family ${a.method}"
}

/**
 * A suite's rows as configurations measured live on both values of one parameter (`server=tomcat,netty`): what
 * LiveFindings compares in windows and LiveCapacityFindings in capacity searches. One set of servers serves every
 * configuration, so those whose servers would differ from the first's are left out, each with a line.
 */
internal object SuitePairings {
    /**
     * The runs of [jmh] on each of [values] of [name], matched by their other parameters; [live] turns a run's
     * parameters into those of its live target (a capacity's objective is the search's, not the server's). Each run
     * that cannot be measured live gets a line to [say].
     */
    fun of(
        jmh: List<String>,
        name: String,
        values: List<String>,
        say: (String) -> Unit,
        live: (Map<String, String>) -> Map<String, String> = { it },
    ): List<Pairing> {
        fun runs(value: String): List<Plan.Run> {
            val options = CommandLineOptions(*(jmh + listOf("-p", "$name=$value")).toTypedArray())
            return Plan.runs(options)
        }
        val others = values.drop(1).map { v ->
            runs(v).associateBy { it.benchmark + it.params.filterKeys { k -> k != name } }
        }
        val out = ArrayList<Pairing>()
        for (a in runs(values[0])) {
            val key = a.benchmark + a.params.filterKeys { it != name }
            val matched = others.mapNotNull { it[key] }
            if (matched.size < others.size) continue
            val all = listOf(a) + matched
            val targets = all.map { runCatching { LiveTarget.of(it.benchmark, live(it.params), served = false) } }
            val failed = targets.firstNotNullOfOrNull { it.exceptionOrNull() }
            if (failed != null) {
                say("not measured live: ${failed.message}")
                continue
            }
            out += Pairing(targets.map { it.getOrThrow() }, a.params.filterKeys { it != name })
        }
        val server = out.firstOrNull()?.let(::servers)
        val (same, other) = out.partition { servers(it) == server }
        other.forEach {
            say("not measured live: ${it.label} needs other servers than ${same.first().label}")
        }
        return same
    }

    private fun servers(p: Pairing) = p.targets.map { it.serveArgs to it.properties }

    /** How [target]'s server starts: serve's main class of this jar, with this JVM's java. */
    fun spec(target: LiveTarget): LiveMeasurement.Spec {
        val jar = File(SuitePairings::class.java.protectionDomain.codeSource.location.toURI()).path
        val java = File(System.getProperty("java.home"), "bin/java").path
        return LiveMeasurement.Spec(target.serveArgs.joinToString(" ")) { target.serveCommand(java, jar, emptyList()) }
    }
}
