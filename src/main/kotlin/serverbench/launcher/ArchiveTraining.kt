package serverbench.launcher

import org.openjdk.jmh.annotations.Mode
import org.openjdk.jmh.runner.Runner
import org.openjdk.jmh.runner.format.OutputFormatFactory
import org.openjdk.jmh.runner.options.Options
import org.openjdk.jmh.runner.options.ProfilerConfig
import org.openjdk.jmh.runner.options.TimeValue
import org.openjdk.jmh.runner.options.VerboseMode
import org.openjdk.jmh.util.Optional
import serverbench.params.ParamNames
import java.io.OutputStream
import java.io.PrintStream

/**
 * The fork that makes a [ForkArchive]: `NoopBenchmark.hello` on the server stack, run as any fork is (JMH's fork, the
 * server's start, the client, validated requests), but briefly: no steady warmup, one 1 s iteration, no profiler, no
 * result kept. It loads what every family's fork loads first; a family's own classes load from the jar as before.
 */
class ArchiveTraining(private val base: Options, private val server: String, private val record: List<String>) :
    Options by SingleRun(base, Plan.Run(NOOP, Mode.Throughput, linkedMapOf(ParamNames.SERVER to server), 0)) {
    override fun getWarmupIterations(): Optional<Int> = Optional.of(0)
    override fun getWarmupForkCount(): Optional<Int> = Optional.of(0)
    override fun getMeasurementIterations(): Optional<Int> = Optional.of(1)
    override fun getMeasurementTime(): Optional<TimeValue> = Optional.of(TimeValue.seconds(1))
    override fun getForkCount(): Optional<Int> = Optional.of(1)
    override fun getParameter(name: String): Optional<Collection<String>> =
        if (name == ParamNames.SERVER) Optional.of(listOf(server)) else Optional.none()
    override fun getProfilers() = emptyList<ProfilerConfig>()
    override fun getJvmArgsAppend(): Optional<Collection<String>> =
        Optional.of(base.jvmArgsAppend.orElse(emptyList()) + record + "-D${STEADY_WARMUP}=off")

    companion object {
        private const val serialVersionUID = 1L
        private const val NOOP = "serverbench.benchmarks.NoopBenchmark.hello"
        private const val STEADY_WARMUP = "serverbench.warmup"

        /** Runs the training fork with [record]'s flags; why it failed, or null. */
        fun run(base: Options, server: String, record: List<String>): String? = try {
            val silent = OutputFormatFactory.createFormatInstance(
                PrintStream(OutputStream.nullOutputStream()),
                VerboseMode.SILENT,
            )
            val results = Runner(ArchiveTraining(base, server, record), silent).run()
            if (results.isEmpty()) "the training fork failed" else null
        } catch (e: Exception) {
            generateSequence<Throwable>(e) { it.cause }.mapNotNull { it.message }.lastOrNull() ?: e.toString()
        }
    }
}
