package serverbench.launcher

import org.openjdk.jmh.results.RunResult
import org.openjdk.jmh.results.format.ResultFormatType
import org.openjdk.jmh.runner.BenchmarkException
import org.openjdk.jmh.runner.NoBenchmarksException
import org.openjdk.jmh.runner.ProfilersFailedException
import org.openjdk.jmh.runner.Runner
import org.openjdk.jmh.runner.RunnerException
import org.openjdk.jmh.runner.format.OutputFormatFactory
import org.openjdk.jmh.runner.options.Options
import org.openjdk.jmh.runner.options.VerboseMode
import serverbench.client.LoadFailure
import serverbench.metrics.RunFiles
import serverbench.params.Objective
import serverbench.params.ParamNames
import serverbench.params.ParamValues
import serverbench.params.RunName
import serverbench.profile.ProfileLayout
import java.io.File
import java.util.concurrent.TimeUnit

/**
 * One JMH run per planned run: the launcher decides which runs make sense, keeps only complete results, and saves
 * them after every run, so a failure or a kill later in the session never loses what was measured.
 */
class Session(
    private val runs: List<Plan.Run>,
    private val options: Options,
    private val verbosity: VerboseMode,
    private val resultFile: String?,
    private val resultFormat: ResultFormatType,
    /** Where `-prof flame` writes this session's graphs, or null when not profiling. */
    private val profileDir: File?,
) {
    /** Where forks write their own files beside a JSON result file ([RunFiles]); null without one. */
    private val runFiles: File? = resultFile?.takeIf { resultFormat == ResultFormatType.JSON }?.let {
        RunFiles.root(File(it))
    }

    /** Runs them all (or up to the first failure with -foe); the launcher's exit status. */
    fun run(console: Console): Int {
        val out = SessionOutput(OutputFormatFactory.createFormatInstance(console.jmh, verbosity))
        val tally = Tally()
        val started = System.nanoTime()
        fun elapsed() = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)

        announce(console)
        val archives = ForkArchive.of(options, Launcher.COMPAT_JVM_ARGS, console::info)
        for ((i, run) in runs.withIndex()) {
            val archive = archiveArgs(archives, run)
            if (console.compact) {
                console.started(RunLine.name(i, runs, Progress.eta(i, runs, elapsed())))
            } else {
                console.info(Progress.line(i, runs, elapsed()))
            }
            out.takeFailure()
            when (runOne(run, archive, out, tally, console)) {
                Next.RUN -> Unit
                Next.STOP -> break
                Next.FAIL -> return 1
            }
        }

        out.finish(tally.results, elapsed())
        return conclude(tally, console)
    }

    /** What this session's runs have given so far. */
    private class Tally {
        val profiles = HashMap<RunResult, List<File>>()
        val files = HashMap<RunResult, List<File>>()
        val results = ArrayList<RunResult>()
        val failed = ArrayList<String>()
    }

    /** After a run: run the next, stop here (-foe), or fail the session at once. */
    private enum class Next { RUN, STOP, FAIL }

    private fun announce(console: Console) {
        val estimate = Progress.duration(runs.sumOf { it.estimateSeconds })
        val searches = runs.any { (it.params[ParamNames.OBJECTIVE] ?: Objective.NONE) != Objective.NONE }
        val search = if (searches) " + each capacity search's steps at most" else ""
        console.info(
            "serverbench: ${runs.size} run${if (runs.size == 1) "" else "s"} planned, estimated duration " +
                "$estimate (forks x (warmup + measurement + ~3 s server start$search))",
        )
        if (console.compact) {
            RunLine.common(runs)?.let { console.info("serverbench: $it") }
            console.info("serverbench: JMH's full output goes to ${console.logFile}")
        }
    }

    /** The class-data archive's flags for [run]'s forks (made first if needed), or none. */
    private fun archiveArgs(archives: ForkArchive?, run: Plan.Run): List<String> {
        val server = run.params[ParamNames.SERVER]
        // A server of another kind (a target's label) has no stack here to train an archive on.
        if (archives == null || server == null || server == ParamValues.OTHER) return emptyList()
        archives.prepare(server) { ArchiveTraining.run(options, server, it) }
        return archives.useArgs(server)
    }

    /** Runs [run] with JMH, counts its complete results or its failure, and saves the results so far. */
    private fun runOne(run: Plan.Run, archive: List<String>, out: SessionOutput, tally: Tally, console: Console): Next {
        try {
            val complete = Runner(SingleRun(options, run, archive, runFiles), out).run().filter {
                Completeness.isComplete(it)
            }
            record(run, complete, out, tally, console)
            return Next.RUN
        } catch (e: NoBenchmarksException) {
            tally.failed += run.describe()
            console.error("serverbench: ${run.describe()}: JMH found no such benchmark")
            return Next.RUN
        } catch (e: ProfilersFailedException) {
            generateSequence<Throwable>(e) { it.cause }.forEach { ex ->
                (listOf(ex) + ex.suppressed).forEach { console.error(it.message ?: it.toString()) }
            }
            return Next.FAIL
        } catch (e: RunnerException) {
            // -foe: stop at the first failure, keep what completed before it.
            tally.failed += run.describe()
            failure(e, console)
            return Next.STOP
        } finally {
            if (resultFile != null && tally.results.isNotEmpty()) {
                val listed = ResultFiles.Listed({ tally.profiles[it].orEmpty() }, { tally.files[it].orEmpty() })
                ResultFiles.write(tally.results, resultFile, resultFormat, listed)
            }
        }
    }

    /** [run]'s [complete] results (and the graphs profiled for them), or its failure when none completed. */
    private fun record(run: Plan.Run, complete: List<RunResult>, out: SessionOutput, tally: Tally, console: Console) {
        if (profileDir != null) {
            complete.forEach { r ->
                val params = r.params.paramsKeys.associateWith { r.params.getParam(it) }
                tally.profiles[r] = ProfileLayout.made(profileDir, r.params.benchmark, params)
            }
        }
        if (runFiles != null) {
            complete.forEach { r ->
                tally.files[r] = RunFiles.made(runFiles, r.params.benchmark, RunName.values(r.params))
            }
        }
        if (complete.isEmpty()) {
            val why = out.takeFailure()?.let { ": $it" } ?: ""
            tally.failed += run.describe() + why
            console.finished("FAILED$why")
        }
        complete.forEach { console.finished(RunLine.figures(it)) }
        tally.results += complete
    }

    /** Where the results went and which runs failed; the exit status. */
    private fun conclude(tally: Tally, console: Console): Int {
        val results = tally.results
        val failed = tally.failed
        if (resultFile != null) {
            if (results.isNotEmpty()) {
                console.info("\nBenchmark result is saved to $resultFile (${results.size} completed runs)")
            } else {
                console.info("\nNo completed run: $resultFile was not written")
            }
        }
        if (failed.isNotEmpty()) {
            // JMH itself would exit 0 here, and count a run that failed after some iterations as a result.
            val notRun = runs.size - results.size - failed.size
            console.error(
                "serverbench: ${failed.size} of ${runs.size} benchmark runs failed" +
                    (if (notRun > 0) " ($notRun not run after the failure, -foe)" else "") +
                    "; the results hold the other ${results.size}: ${failed.joinToString("; ")}",
            )
            return 1
        }
        return 0
    }

    private fun failure(e: RunnerException, console: Console) {
        val failure = loadFailure(e)
        if (failure != null) {
            console.error("serverbench: benchmark failed: ${failure.message}")
        } else if (verbosity == VerboseMode.EXTRA) {
            console.jmh.print("ERROR: ")
            e.printStackTrace(console.jmh)
        } else {
            // e.g. "Another JMH instance might be running": JMH's own words say what to do; the stack does not.
            val why = generateSequence<Throwable>(e) { it.cause }.mapNotNull { it.message }.lastOrNull() ?: e.toString()
            console.error(
                "serverbench: ${why.lineSequence().first().removePrefix("ERROR: ")} " +
                    "(-v EXTRA shows the stack trace)",
            )
        }
    }

    private fun loadFailure(e: Throwable): LoadFailure? {
        val seen = HashSet<Throwable>()
        val queue = ArrayDeque(listOf(e))
        while (queue.isNotEmpty()) {
            val t = queue.removeFirst()
            if (!seen.add(t)) continue
            if (t is LoadFailure) return t
            t.cause?.let(queue::add)
            queue.addAll(t.suppressed)
            if (t is BenchmarkException) queue.addAll(t.suppressed)
        }
        return null
    }
}
