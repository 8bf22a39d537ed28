package serverbench.hyperfoil

import org.openjdk.jmh.util.ListStatistics
import serverbench.metrics.FigureFormat
import serverbench.metrics.Guards
import serverbench.metrics.LatencyResult
import serverbench.metrics.MetricSpec
import serverbench.metrics.Steadiness
import serverbench.report.BenchmarkResult
import tools.jackson.databind.json.JsonMapper
import tools.jackson.databind.node.ArrayNode
import tools.jackson.databind.node.ObjectNode
import java.io.File
import java.nio.file.Files
import java.nio.file.StandardCopyOption
import java.util.Locale
import serverbench.metrics.MetricCatalogue as M

/**
 * A Hyperfoil run folded into the harness's JSON (JMH's `-rf json` layout, which `scripts/report` reads): the same
 * benchmark and parameters plus `engine=hyperfoil`, so a Hyperfoil row and a harness row of one workload sit side by
 * side in a report; the score is successful requests/s per measured iteration (JMH's 99.9 % interval over them),
 * then latency percentiles of the measured phase's histogram and the harness's other figures where Hyperfoil has them.
 */
object HyperfoilRow {
    /** In-VM here, on the same machine as the server ([HyperfoilCommand]). */
    const val ENGINE = "hyperfoil"

    /** A Hyperfoil controller's run on its agents, imported from its all.json ([AllJson]). */
    const val AGENTS = "hyperfoil-agents"

    private val mapper = JsonMapper.builder().build()

    class Row(val json: ObjectNode, val line: String)

    fun fold(w: Workload, summary: RunSummary, sizing: HyperfoilYaml.Sizing, engine: String = ENGINE): Row =
        Fold(w, summary, sizing, engine).row()

    /** One run's measured phase, read once, and the JMH-style row and the console line made of it. */
    private class Fold(
        private val w: Workload,
        summary: RunSummary,
        private val sizing: HyperfoilYaml.Sizing,
        private val engine: String,
    ) {
        private val inVm = engine == ENGINE
        private val measured = summary.phase(HyperfoilYaml.MEASURE)

        // Requests by the second they started in, only the seconds wholly inside the measured phase.
        private val perIteration = (0 until sizing.iterations).map { i ->
            (0 until sizing.iterationSeconds).sumOf { s ->
                measured.seconds[i * sizing.iterationSeconds + s]?.first ?: 0
            }.toDouble() / sizing.iterationSeconds
        }
        private val window = measured.seconds.filterKeys { it < sizing.measureSeconds }.values
        private val meanSeconds = window.sumOf { it.second }.let { timed ->
            if (timed > 0) window.sumOf { it.third } / 1e9 / timed else Double.NaN
        }
        private val stats = ListStatistics(perIteration.toDoubleArray())
        private val figures = linkedMapOf(
            "mean" to measured.meanMillis,
            "p50" to measured.percentileMillis("50"),
            "p90" to measured.percentileMillis("90"),
            "p99" to measured.percentileMillis("99"),
            "p99.9" to measured.percentileMillis("99.9"),
            "max" to measured.maxMillis,
        )

        // Open loop: from the actual send; also from the scheduled one only if no request waited for a session or a
        // connection, which only the in-VM run knows (a controller's all.json does not say when sessions ran out).
        private val onSchedule = inVm && measured.blockedNanos == 0L && !measured.sessionLimitExceeded
        private val behindSchedule = w.openLoop && inVm && !onSchedule
        private val littlesLaw =
            if (!w.openLoop && meanSeconds.isFinite()) stats.mean * meanSeconds / w.concurrency else null
        private val guards = if (inVm) guards(measured, littlesLaw) else emptyMap()
        private val clientCpu = inVm && measured.processCores.isFinite()

        // The harness's verdict over the measured iterations: a row still climbing or scattering is not for comparing.
        private val verdict = Steadiness.judge(perIteration)

        fun row(): Row {
            val entry = header()
            val score = metric(entry, "primaryMetric", stats.mean, M.THROUGHPUT.unit, stats.getMeanErrorAt(0.999))
            score.putArray("rawData").addArray().apply { perIteration.forEach { add(it) } }
            val secondary = entry.putObject("secondaryMetrics")
            latencies(secondary)
            client(secondary)
            // Too few iterations: no verdict, so no flag, as the harness writes none (0 would read as steady).
            if (verdict !is Steadiness.Verdict.TooFew) {
                metric(secondary, M.NOT_STEADY, (verdict as? Steadiness.Verdict.NotSteady)?.flag ?: 0.0)
            }
            return Row(entry, line())
        }

        /** What JMH writes before the metrics: the benchmark, its run's settings and parameters. */
        private fun header(): ObjectNode {
            val entry = mapper.createObjectNode()
            entry.put("jmhVersion", "Hyperfoil 0.25.2 via scripts/hyperfoil")
            entry.put("benchmark", w.run.benchmark)
            entry.put("mode", "thrpt")
            entry.put("threads", 1)
            entry.put("forks", 1)
            // The agents' JDK and threads are theirs, which all.json does not say.
            if (inVm) entry.put("jdkVersion", System.getProperty("java.version"))
            entry.put("warmupIterations", 0)
            entry.put("warmupTime", "${sizing.warmupSeconds} s")
            entry.put("measurementIterations", sizing.iterations)
            entry.put("measurementTime", "${sizing.iterationSeconds} s")
            val params = entry.putObject("params")
            w.run.params.forEach { (k, v) -> params.put(k, v) }
            params.put(BenchmarkResult.ENGINE, engine)
            return entry
        }

        private fun latencies(secondary: ObjectNode) {
            val latency = if (w.openLoop) LatencyResult.UNCORRECTED_PREFIX else LatencyResult.PREFIX
            for ((name, value) in figures) {
                metric(secondary, M.of("$latency.$name")!!, value)
                if (w.openLoop && onSchedule) metric(secondary, M.of("${LatencyResult.PREFIX}.$name")!!, value)
            }
            if (behindSchedule) metric(secondary, M.WARNINGS.getValue(Guards.BEHIND_SCHEDULE), 1.0)
            metric(secondary, M.ERRORS, 0.0)
            littlesLaw?.let { metric(secondary, M.LITTLES_LAW, it) }
        }

        /** The client's threads, warmup and CPU, with the guards on its CPU and Little's law. */
        private fun client(secondary: ObjectNode) {
            if (inVm) metric(secondary, M.CLIENT_THREADS, w.threads.toDouble())
            metric(secondary, M.WARMUP_SECONDS, sizing.warmupSeconds.toDouble())
            if (!clientCpu) return
            metric(secondary, M.CLIENT_CPU, measured.processCores)
            // Per successful request: the phase's CPU over the successes of the requests it started.
            val successes = window.sumOf { it.first }
            if (successes > 0) {
                val micros = measured.processCores * sizing.measureSeconds * 1e6
                metric(secondary, M.CLIENT_CPU_PER_REQ, micros / successes)
            }
            for (g in listOf(Guards.CLIENT_SATURATED, Guards.LITTLES_LAW)) {
                metric(secondary, M.WARNINGS.getValue(g), if (g in guards) 1.0 else 0.0)
            }
        }

        private fun line(): String {
            fun f(x: Double) = FigureFormat.format(x)
            val parts = mutableListOf(
                "${f(stats.mean)} ± ${f(stats.getMeanErrorAt(0.999))} req/s",
                (if (w.openLoop) "uncorrected " else "") + "p50 ${f(figures.getValue("p50"))} ms, " +
                    "p99 ${f(figures.getValue("p99"))} ms, p99.9 ${f(figures.getValue("p99.9"))} ms",
            )
            littlesLaw?.let { parts += "littlesLaw %.3f".format(Locale.ROOT, it) }
            if (clientCpu) parts += "client %.2f cores".format(Locale.ROOT, measured.processCores)
            if (behindSchedule) parts += "requests waited for a session or connection: behind schedule"
            guards.values.forEach { parts += "WARNING ($it)" }
            (verdict as? Steadiness.Verdict.NotSteady)?.why?.let { parts += "WARNING (${Guards.NOT_STEADY}: $it)" }
            (verdict as? Steadiness.Verdict.TooFew)?.let { parts += it.why }
            return parts.joinToString("; ")
        }
    }

    /**
     * The harness's guards that Hyperfoil's figures can tell, the measured phase taken as one iteration (in-VM only):
     * `clientSaturated` (its busiest event loop ≥ 0.9 of a core, or its JVM above half a core while the machine's
     * cores were ≥ 90 % busy: it took CPU the server needed) and `littlesLaw` (closed loop, outside [0.9, 1.1]).
     */
    private fun guards(m: RunSummary.Phase, littlesLaw: Double?): Map<String, String> {
        val out = LinkedHashMap<String, String>()
        val loop = m.busiestLoopCores
        if (loop >= Guards.CLIENT_CORE) {
            out[Guards.CLIENT_SATURATED] = "${Guards.CLIENT_SATURATED}: Hyperfoil's busiest event loop used " +
                "%.2f of a core: the client is the bottleneck, so req/s understates the server".format(
                    Locale.ROOT,
                    loop,
                )
        } else if (m.processCores > 0.5 && m.machineBusy >= 0.9) {
            out[Guards.CLIENT_SATURATED] = "${Guards.CLIENT_SATURATED}: Hyperfoil used %.2f cores while the machine's "
                .format(Locale.ROOT, m.processCores) +
                "cores were %.0f %% busy: it took CPU the server needed".format(Locale.ROOT, m.machineBusy * 100)
        }
        if (littlesLaw != null && (littlesLaw < 0.9 || littlesLaw > 1.1)) {
            out[Guards.LITTLES_LAW] = "${Guards.LITTLES_LAW}: req/s × mean latency ÷ concurrency = " +
                "%.3f, outside [0.9, 1.1]: requests spent time the latency does not show".format(
                    Locale.ROOT,
                    littlesLaw,
                )
        }
        return out
    }

    /** The run's failure in one line, with what each phase got back. */
    fun failure(w: Workload, summary: RunSummary): String {
        val counts = listOf(HyperfoilYaml.WARMUP, HyperfoilYaml.MEASURE).mapNotNull { name ->
            val phase = summary.phase(name)
            if (phase.requests == 0L) return@mapNotNull null
            val errors = phase.errorsByKind().entries.joinToString(", ") { "${it.value} ${it.key}" }
            "$name: ${phase.requests} requests" + (if (errors.isEmpty()) "" else ", failed: $errors")
        }
        return "${w.name}: ${summary.failure}" + (if (counts.isEmpty()) "" else " (${counts.joinToString("; ")})")
    }

    /** [metric]'s figure, named and unitised as the harness writes it (`MetricCatalogue`). */
    private fun metric(parent: ObjectNode, metric: MetricSpec, value: Double) =
        metric(parent, metric.name, value, metric.unit)

    private fun metric(parent: ObjectNode, name: String, value: Double, unit: String, error: Double = Double.NaN) =
        parent.putObject(name).apply {
            number(this, "score", value)
            number(this, "scoreError", error)
            // Without an interval JMH writes the score as both ends.
            val ends = if (error.isNaN()) listOf(value, value) else listOf(value - error, value + error)
            putArray("scoreConfidence").apply { ends.forEach { number(this, it) } }
            put("scoreUnit", unit)
        }

    /** JMH writes NaN as the string "NaN". */
    private fun number(node: ObjectNode, name: String, value: Double) {
        if (value.isFinite()) node.put(name, value) else node.put(name, "NaN")
    }

    private fun number(array: ArrayNode, value: Double) {
        if (value.isFinite()) array.add(value) else array.add("NaN")
    }

    /** All rows so far, written through a temporary file so that a reader never sees half of it. */
    fun write(rows: List<ObjectNode>, file: File) {
        val array = mapper.createArrayNode().apply { rows.forEach { add(it) } }
        file.absoluteFile.parentFile.mkdirs()
        val temp = File(file.absoluteFile.parentFile, ".${file.name}.tmp")
        temp.writeText(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(array) + "\n")
        Files.move(temp.toPath(), file.toPath(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
    }
}
