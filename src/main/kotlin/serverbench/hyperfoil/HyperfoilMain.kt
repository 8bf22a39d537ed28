@file:JvmName("HyperfoilMain")

package serverbench.hyperfoil

import org.openjdk.jmh.runner.options.CommandLineOptionException
import org.openjdk.jmh.runner.options.CommandLineOptions
import serverbench.fixture.RemoteTarget
import serverbench.fixture.ServeAdmin
import serverbench.launcher.Applicability
import serverbench.launcher.Launcher
import serverbench.launcher.ParamCheck
import serverbench.launcher.Plan
import serverbench.params.LaterParams
import serverbench.params.ParamNames
import serverbench.params.TargetLimits
import tools.jackson.databind.node.ObjectNode
import java.io.File
import java.io.IOException
import java.time.LocalDateTime
import java.time.format.DateTimeFormatter
import java.util.Properties
import kotlin.system.exitProcess

/**
 * `scripts/hyperfoil <regex> [-p ...]`: the launcher's runs for the same regex and parameters, each exported as a
 * Hyperfoil benchmark file ([HyperfoilYaml]) and, unless `--export-only`, run in-VM by Hyperfoil 0.25.2 in a JVM of its
 * own (its classpath apart from benchmarks.jar's Netty 4.2) against a `scripts/serve` started for the run and stopped
 * after it, whatever happens. Results go into the harness's JSON with `engine=hyperfoil` ([HyperfoilRow]).
 * Exit status as the launcher's: 0 all ran, 1 a run failed, 2 bad input (nothing started).
 */
fun main(args: Array<String>) {
    exitProcess(HyperfoilCommand.run(args))
}

object HyperfoilCommand {
    /** target/hyperfoil: the runner's jar and Hyperfoil's libraries (lib/). */
    const val HOME = "serverbench.hyperfoil.home"

    /** scripts/serve, which starts the server for each run. */
    const val SERVE = "serverbench.hyperfoil.serve"

    /** jmh-results/hyperfoil-<timestamp>: its .json, .log, and a directory with the benchmark files. */
    const val OUT = "serverbench.hyperfoil.out"

    private const val RUNNER = "serverbench.hyperfoil.runner.HyperfoilRunner"

    fun run(args: Array<String>): Int {
        val options = try {
            HyperfoilOptions.parse(args.toList())
        } catch (e: IllegalArgumentException) {
            return usage(e.message ?: e.toString())
        }
        if (options.help) {
            println(HyperfoilOptions.USAGE)
            return 0
        }
        val out = File(System.getProperty(OUT) ?: "jmh-results/hyperfoil-${stamp()}")
        options.importFrom?.let { return import(it, File(options.regex), File("${out.path}.json")) }
        val workloads = try {
            plan(options)
        } catch (e: IllegalArgumentException) {
            System.err.println("hyperfoil: ${e.message}")
            return Launcher.USAGE
        }
        val home = File(System.getProperty(HOME) ?: "target/hyperfoil")
        val serve = File(System.getProperty(SERVE) ?: "scripts/serve")
        val classpath = classpath(home)
        if (!options.exportOnly) runProblem(options, workloads, classpath, home, serve)?.let { return refuse(it) }
        val dir = out.apply { mkdirs() }
        export(workloads, options, dir)
        if (options.exportOnly) {
            if (options.serverHost == null) {
                println(
                    "hyperfoil: they target scripts/serve's default port: scripts/serve --server <the run's server> " +
                        "(docs/more-load.md)",
                )
            }
            return 0
        }
        return Session(workloads, options, dir, File("${out.path}.json"), File("${out.path}.log"), classpath!!, serve)
            .run()
    }

    /** Why the in-VM run cannot start here: no Hyperfoil runtime, no scripts/serve, or a target it cannot use. */
    private fun runProblem(
        options: HyperfoilOptions,
        workloads: List<Workload>,
        classpath: String?,
        home: File,
        serve: File,
    ): String? = when {
        classpath == null -> "no Hyperfoil runtime in $home: build it with mvn package"
        options.serverHost == null && !serve.canExecute() -> "no scripts/serve at $serve"
        else -> options.serverHost?.let { targetProblem(it, workloads) }
    }

    /** One Hyperfoil benchmark file per workload in [dir], and a line for each way they differ from the harness. */
    private fun export(workloads: List<Workload>, options: HyperfoilOptions, dir: File) {
        val target = options.serverHost?.let { ServeAdmin.hostPort(it.address) } ?: "127.0.0.1:8080"
        for (w in workloads) {
            File(dir, "${w.fileName}.hf.yaml").writeText(HyperfoilYaml.write(w, target, options.sizing, options.agents))
        }
        println("hyperfoil: ${workloads.size} Hyperfoil benchmark file(s) in ${dir.path}/ (target http://$target)")
        workloads.flatMap { it.notes }.distinct().forEach { note ->
            println("hyperfoil: differs from the harness in ${workloads.count { note in it.notes }} run(s): $note")
        }
    }

    /** A controller's results ([AllJson]) of a file this command exported, folded as an in-VM run's would be. */
    private fun import(allJson: File, yaml: File, results: File): Int {
        val (run, sizing) = try {
            HyperfoilYaml.identity(yaml.readText())
                ?: return refuse(
                    "$yaml has no '${HyperfoilYaml.IDENTITY.trim()}' line: not a file scripts/hyperfoil wrote",
                )
        } catch (e: IOException) {
            return refuse("cannot read $yaml: ${e.message}")
        }
        val (workload, summary) = try {
            Workload.of(run) to AllJson.read(allJson)
        } catch (e: IllegalArgumentException) {
            return refuse(e.message ?: e.toString())
        }
        if (summary.failure != null) {
            System.err.println("hyperfoil: FAILED ${HyperfoilRow.failure(workload, summary)}")
            return 1
        }
        if (summary.phase(HyperfoilYaml.MEASURE).requests == 0L) {
            return refuse("$allJson has no requests in phase '${HyperfoilYaml.MEASURE}': not a run of $yaml")
        }
        val row = HyperfoilRow.fold(workload, summary, sizing, HyperfoilRow.AGENTS)
        HyperfoilRow.write(listOf(row.json), results)
        println("hyperfoil: ${workload.name} (from $allJson): ${row.line}")
        return 0
    }

    /** Bad input is one line, as the launcher's. */
    private fun usage(message: String): Int {
        System.err.println("hyperfoil: $message (scripts/hyperfoil --help: the options)")
        return Launcher.USAGE
    }

    private fun refuse(message: String): Int {
        System.err.println("hyperfoil: $message")
        return Launcher.USAGE
    }

    /** The runs the launcher would make for the regex and `-p`, as workloads; one line when one cannot be run. */
    fun plan(o: HyperfoilOptions): List<Workload> {
        val jmhArgs = (listOf(o.regex) + o.params.flatMap { listOf("-p", it) }).toTypedArray()
        val cmd = try {
            CommandLineOptions(*jmhArgs)
        } catch (e: CommandLineOptionException) {
            throw IllegalArgumentException(e.message)
        }
        // Only the selection matters here: the self-checks when named, every benchmark's parameters.
        val options = Launcher.options(cmd, Properties())
        val planned = Plan.runs(options)
        if (planned.isEmpty()) {
            val meant = Launcher.suggestion(listOf(o.regex), Plan.allBenchmarks())
            throw IllegalArgumentException(
                "no benchmark matches '${o.regex}' (a regular expression matched anywhere in " +
                    "serverbench.benchmarks.<Class>.<method>).$meant",
            )
        }
        val given = ParamCheck.given(jmhArgs)
        // Before ParamCheck, which would probe this machine's cgroups for a budget the Hyperfoil run cannot apply.
        val budget = given.mapNotNull { (name, values) ->
            values.firstOrNull { !LaterParams.isDefault(name, it) }?.let { name to it }
        }.toMap()
        TargetLimits.budget(budget, Workload.ELSEWHERE)?.let { throw IllegalArgumentException(it) }
        ParamCheck.check(given, planned, Plan.declaredParams(options))?.let { throw IllegalArgumentException(it) }
        val applicable = Applicability.apply(planned, Runtime.version().feature())
        applicable.notices.forEach { println(it.replaceFirst("serverbench:", "hyperfoil:")) }
        return applicable.runs.map { Workload.of(it) }
    }

    /** A target that is not there, or runs another stack than a run names, in one line; null when it will do. */
    private fun targetProblem(target: RemoteTarget, workloads: List<Workload>): String? {
        val status = try {
            target.status()
        } catch (e: IllegalStateException) {
            return "--server-host: ${e.message}"
        }
        val server = ParamNames.SERVER
        val other = workloads.firstOrNull { it.run.params[server] != status.server } ?: return null
        return "--server-host ${ServeAdmin.hostPort(target.address)} runs ${status.server}, not -p $server=" +
            "${other.run.params[server]}: add -p $server=${status.server}, or start it with scripts/serve --server " +
            other.run.params[server]
    }

    /** The runner's jar and Hyperfoil's libraries, as a classpath; null when `mvn package` has not made them. */
    private fun classpath(home: File): String? {
        val jars = home.listFiles { f -> f.name.endsWith("-hyperfoil-runner.jar") }.orEmpty().toList()
        val libs = File(home, "lib").listFiles { f -> f.name.endsWith(".jar") }.orEmpty().sortedBy { it.name }
        if (jars.size != 1 || libs.none { it.name.startsWith("hyperfoil-core-") }) return null
        return (jars + libs).joinToString(File.pathSeparator) { it.absolutePath }
    }

    private fun stamp() = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))

    /** Runs the workloads one at a time, each against its own server, and keeps the results file up to date. */
    private class Session(
        val workloads: List<Workload>,
        val options: HyperfoilOptions,
        val dir: File,
        val results: File,
        val log: File,
        val classpath: String,
        val serve: File,
    ) {
        private val rows = ArrayList<ObjectNode>()
        private val failed = ArrayList<String>()

        fun run(): Int {
            val sizing = options.sizing
            val each = sizing.warmupSeconds + sizing.measureSeconds + if (options.serverHost == null) 5 else 2
            println(
                "hyperfoil: ${workloads.size} run(s), about ${(workloads.size * each + 59) / 60} min; Hyperfoil's " +
                    "log: ${log.path}",
            )
            for ((i, w) in workloads.withIndex()) {
                println(
                    "hyperfoil: [${i + 1}/${workloads.size}] ${w.name}: ${HyperfoilYaml.describeLoad(w)}; " +
                        "${sizing.warmupSeconds} s warmup, ${sizing.iterations} x ${sizing.iterationSeconds} s " +
                        "measured",
                )
                val outcome = try {
                    one(w)
                } catch (e: IllegalStateException) {
                    "${w.name}: ${e.message}"
                }
                outcome?.let {
                    failed += it
                    System.err.println("hyperfoil: FAILED $it")
                }
            }
            if (rows.isNotEmpty()) println("hyperfoil: results ${results.path}")
            if (failed.isEmpty()) return 0
            // Each failure has had its line; with several runs, one more says how many.
            if (workloads.size > 1) {
                System.err.println(
                    "hyperfoil: ${failed.size} of ${workloads.size} runs failed" +
                        (if (rows.isEmpty()) "" else "; the results hold the other ${rows.size}"),
                )
            }
            return 1
        }

        /** One run against a server of its own (or the --server-host); null when it succeeded, else its failure. */
        private fun one(w: Workload): String? {
            val server = if (options.serverHost == null) {
                val server = w.run.params.getValue(ParamNames.SERVER)
                val properties = if (server == "tomcat") mapOf(Workload.TOMCAT_KEEP_ALIVE to "-1") else emptyMap()
                ServeProcess.start(serve, server, File(dir, "${w.fileName}.serve.log"), properties)
            } else {
                null
            }
            try {
                val target = server?.let { "127.0.0.1:${it.port}" } ?: ServeAdmin.hostPort(options.serverHost!!.address)
                val yaml = File(dir, "${w.fileName}.hf.yaml")
                // The file says what ran: the port of the server started for it.
                yaml.writeText(HyperfoilYaml.write(w, target, options.sizing))
                val summaryFile = File(dir, "${w.fileName}.summary.properties").apply { delete() }
                val status = engine(yaml, summaryFile)
                if (!summaryFile.isFile) {
                    return "${w.name}: Hyperfoil's JVM ended with status $status and no summary (see ${log.path})"
                }
                val summary = RunSummary.read(summaryFile)
                if (summary.failure != null || status != 0) return HyperfoilRow.failure(w, summary)
                val row = HyperfoilRow.fold(w, summary, options.sizing)
                rows += row.json
                HyperfoilRow.write(rows, results)
                println("hyperfoil: ${w.name}: ${row.line}")
                return null
            } finally {
                server?.close()
            }
        }

        /** Hyperfoil's JVM: all its output to the log, never the console. */
        private fun engine(yaml: File, summary: File): Int {
            val java = File(System.getProperty("java.home"), "bin/java").path
            val command = listOf(java, "-Xmx1g", "-XX:+UseG1GC") + Launcher.COMPAT_JVM_ARGS +
                listOf("-Dserverbench.hyperfoil.log=${log.absolutePath}", "-cp", classpath, RUNNER, "run") +
                listOf(yaml.path, summary.path)
            val process = ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start()
            Children.track(process)
            try {
                return process.waitFor()
            } finally {
                Children.stop(process)
            }
        }
    }
}
