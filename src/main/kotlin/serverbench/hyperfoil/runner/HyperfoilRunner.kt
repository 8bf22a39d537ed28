@file:JvmName("HyperfoilRunner")

package serverbench.hyperfoil.runner

import io.hyperfoil.api.config.Benchmark
import io.hyperfoil.api.config.Model
import io.hyperfoil.api.config.Phase
import io.hyperfoil.api.config.SLA
import io.hyperfoil.api.session.PhaseInstance
import io.hyperfoil.api.statistics.StatisticsSnapshot
import io.hyperfoil.core.impl.LocalBenchmarkData
import io.hyperfoil.core.impl.LocalSimulationRunner
import io.hyperfoil.core.parser.BenchmarkParser
import io.hyperfoil.http.config.HttpPluginConfig
import io.hyperfoil.http.statistics.HttpStats
import java.io.File
import java.util.Properties
import java.util.TreeMap
import java.util.concurrent.CompletableFuture
import kotlin.system.exitProcess

/**
 * The in-VM Hyperfoil run, in a JVM of its own whose classpath is this jar, kotlin-stdlib and Hyperfoil 0.25.2 with
 * its own dependencies (target/hyperfoil/lib: Netty 4.1, Vert.x 4), never benchmarks.jar's Netty 4.2. Nothing else
 * of serverbench is on that classpath, so this package imports only Hyperfoil and the JDK.
 *
 * - `parse FILE...`: Hyperfoil's own parser reads each file; one line per file (`ok FILE: <what it parsed>` or
 *   `error FILE: <why>`), exit status 1 if any failed.
 * - `run FILE SUMMARY`: runs the benchmark as Hyperfoil's Maven plugin does ([LocalSimulationRunner]), then writes
 *   what it measured per phase to SUMMARY (a properties file the launcher folds into JMH's JSON). The run fails,
 *   exit status 1 and `failure=<one line>` in SUMMARY, when a phase failed (a `fail` action) or a
 *   step's SLA was not met: Hyperfoil's in-VM runner evaluates no SLA itself, its controller does, so this does it
 *   the controller's way (each step's SLAs over the phase's totals).
 *
 * Hyperfoil logs through log4j: `-Dserverbench.hyperfoil.log=FILE` sends all of it to FILE, nothing to the console.
 */
fun main(args: Array<String>) {
    System.getProperty(LOG_PROPERTY)?.let { Logging.toFile(File(it)) }
    val status = when (args.firstOrNull()) {
        "parse" -> if (args.size > 1) parseAll(args.drop(1).map { File(it) }) else usage()
        "run" -> if (args.size == 3) Run(File(args[1])).execute(File(args[2])) else usage()
        else -> usage()
    }
    exitProcess(status)
}

const val LOG_PROPERTY = "serverbench.hyperfoil.log"

private fun usage(): Int {
    System.err.println("usage: HyperfoilRunner parse FILE... | run FILE SUMMARY")
    return 2
}

/** A benchmark file, read by Hyperfoil's own parser ([BenchmarkParser]) as its CLI and Maven plugin read one. */
fun parse(file: File): Benchmark = file.inputStream().use {
    BenchmarkParser.instance().buildBenchmark(it, LocalBenchmarkData(file.toPath()), emptyMap())
}

private fun parseAll(files: List<File>): Int {
    var failed = 0
    for (file in files) {
        val line = try {
            "ok $file: ${describe(parse(file))}"
        } catch (e: Exception) {
            failed++
            "error $file: ${oneLine(e)}"
        }
        println(line)
    }
    return if (failed == 0) 0 else 1
}

/**
 * What Hyperfoil understood, for tests to check against what the export meant: `threads=1 agents=0
 * http=127.0.0.1:8080 connections=64 timeout=30000 phases=warmup[always users=64 10000 ms warmup],measure[...]
 * slas=errorRatio 0.0 invalidRatio 0.0`.
 */
fun describe(b: Benchmark): String {
    val http = b.plugin(HttpPluginConfig::class.java).defaultHttp()
    val phases = b.phases().sortedWith(compareBy({ !it.isWarmup }, { it.name })).joinToString(",") { p ->
        val model = when (val m = p.model) {
            is Model.Always -> "always users=${m.users}"

            is Model.ConstantRate ->
                "constantRate ${m.usersPerSec}/s maxSessions=${m.maxSessions} variance=${m.variance} " +
                    "sessionLimitPolicy=${m.sessionLimitPolicy}"

            else -> m.javaClass.simpleName
        }
        val after = if (p.startAfterStrict.isEmpty()) "" else " after ${p.startAfterStrict.joinToString("+")}"
        "${p.name}[$model ${p.duration} ms${if (p.isWarmup) " warmup" else ""}$after]"
    }
    val slas = b.steps().filter { it is SLA.Provider }.flatMap { (it as SLA.Provider).sla().asList().stream() }
        .map { "errorRatio ${it.errorRatio()} invalidRatio ${it.invalidRatio()}" }.distinct().toList()
    return "threads=${b.defaultThreads()} agents=${b.agents().size} http=${http.host()}:${http.port()} " +
        "connections=${http.sharedConnections().max()} timeout=${http.requestTimeout()} phases=$phases " +
        "slas=${slas.joinToString(";")}"
}

/** The deepest cause's first line: Hyperfoil wraps a phase's failure in exceptions that repeat it. */
fun oneLine(t: Throwable): String {
    var cause = t
    while (cause.cause != null && cause.cause !== cause) cause = cause.cause!!
    val message = cause.message?.lineSequence()?.firstOrNull()?.trim()
    return if (message.isNullOrEmpty()) cause.javaClass.simpleName else message
}

/** One in-VM run of a benchmark file, and what it measured. */
private class Run(private val file: File) {
    /** Phase name -> second since the phase started -> what the requests that started in that second got. */
    private val seconds = HashMap<String, TreeMap<Int, StatisticsSnapshot>>()
    private val limited = HashSet<String>()
    private val cpuFrom = HashMap<String, CpuWindow>()
    private val cpu = HashMap<String, Triple<Double, Double, Double>>()

    fun execute(summaryFile: File): Int {
        val out = Properties()
        val benchmark = try {
            parse(file)
        } catch (e: Exception) {
            return fail(out, summaryFile, "Hyperfoil could not parse $file: ${oneLine(e)}")
        }
        // A listener, not a subclass: JMH's bytecode generator resolves every superclass of the compiled classes, and
        // Hyperfoil is not on its classpath.
        val runner =
            LocalSimulationRunner(benchmark, { phase, _, _, snapshot, _ -> record(phase, snapshot) }, null, null)
        runner.setControllerListener { phase, status, sessionLimitExceeded, _, _ ->
            synchronized(seconds) {
                if (sessionLimitExceeded) limited += phase.name
                // From its start until it stops starting requests: the phase's own duration.
                if (status == PhaseInstance.Status.RUNNING) cpuFrom[phase.name] = CpuWindow.now()
                if (status.isFinished && phase.name !in cpu) {
                    cpuFrom[phase.name]?.let { cpu[phase.name] = it.until(CpuWindow.now()) }
                }
            }
            CompletableFuture.completedFuture(null)
        }
        val failure = try {
            runner.run()
            null
        } catch (e: Exception) {
            oneLine(e)
        }
        synchronized(seconds) {
            summarise(benchmark, out)
            val why = failure
                ?: slaFailure(benchmark)
            return if (why == null) write(out, summaryFile, 0) else fail(out, summaryFile, why)
        }
    }

    private fun record(phase: Phase, snapshot: StatisticsSnapshot) = synchronized(seconds) {
        val bySecond = seconds.getOrPut(phase.name) { TreeMap() }
        bySecond.getOrPut(snapshot.sequenceId) { StatisticsSnapshot().also { it.sequenceId = snapshot.sequenceId } }
            .add(snapshot)
    }

    private fun total(phase: String): StatisticsSnapshot =
        StatisticsSnapshot().also { t -> seconds[phase]?.values?.forEach { t.add(it) } }

    /** The controller's rule: each step's SLAs without a window, over the phase's totals; null when all were met. */
    private fun slaFailure(benchmark: Benchmark): String? {
        val slas = benchmark.steps().filter { it is SLA.Provider }
            .flatMap { (it as SLA.Provider).sla().asList().stream() }.filter { it.window() <= 0 }.toList()
        for (phase in benchmark.phases().sortedBy { it.id }) {
            val total = total(phase.name)
            if (total.isEmpty) continue
            for (sla in slas) {
                sla.validate(phase.name, "", total)?.let {
                    return "SLA not met in phase ${phase.name}: ${it.message()}"
                }
            }
        }
        return null
    }

    private fun summarise(benchmark: Benchmark, out: Properties) {
        out["phases"] = benchmark.phases().sortedBy { it.id }.joinToString(",") { it.name }
        for (phase in benchmark.phases()) {
            val p = "phase.${phase.name}"
            val total = total(phase.name)
            val h = total.histogram
            val http = HttpStats.get(total)
            out["$p.warmup"] = phase.isWarmup.toString()
            out["$p.durationMs"] = phase.duration.toString()
            out["$p.requests"] = total.requestCount.toString()
            out["$p.responses"] = total.responseCount.toString()
            out["$p.invalid"] = total.invalid.toString()
            out["$p.connectionErrors"] = total.connectionErrors.toString()
            out["$p.requestTimeouts"] = total.requestTimeouts.toString()
            out["$p.internalErrors"] = total.internalErrors.toString()
            out["$p.blockedNanos"] = total.blockedTime.toString()
            out["$p.status"] = listOf(http.status_2xx, http.status_3xx, http.status_4xx, http.status_5xx)
                .joinToString(",") + ",${http.status_other}"
            out["$p.sessionLimitExceeded"] = (phase.name in limited).toString()
            cpu[phase.name]?.let { (process, loop, machine) ->
                out["$p.cpu.process"] = process.toString()
                out["$p.cpu.busiestLoop"] = loop.toString()
                out["$p.cpu.machineBusy"] = machine.toString()
            }
            out["$p.latency.count"] = h.totalCount.toString()
            if (h.totalCount > 0) {
                out["$p.latency.meanNanos"] = h.mean.toString()
                out["$p.latency.maxNanos"] = h.maxValue.toString()
                for (q in PERCENTILES) out["$p.latency.p$q.nanos"] = h.getValueAtPercentile(q.toDouble()).toString()
            }
            // Requests by the second they started in: what each measured window got.
            out["$p.seconds"] = seconds[phase.name].orEmpty().entries.joinToString(",") { (s, snap) ->
                "$s:${snap.responseCount - snap.invalid}:${snap.histogram.totalCount}:" +
                    "${snap.histogram.mean.toLong() * snap.histogram.totalCount}"
            }
        }
    }

    private fun fail(out: Properties, summaryFile: File, why: String): Int {
        out["failure"] = why
        return write(out, summaryFile, 1)
    }

    private fun write(out: Properties, summaryFile: File, status: Int): Int {
        summaryFile.outputStream().use { out.store(it, "Hyperfoil run of $file") }
        return status
    }

    companion object {
        val PERCENTILES = listOf("50", "90", "99", "99.9")
    }
}
