package serverbench.metrics

import java.io.File
import java.lang.management.ManagementFactory

/**
 * How much the JIT wants to compile, as the time its compiler threads were on a CPU **or waiting on a run queue for
 * one**: on Linux each `C1/C2 CompilerThread`'s `/proc/self/task/<tid>/schedstat` (its first two fields, nanoseconds).
 * A compiler thread with nothing to compile sleeps and adds neither; one with a queue adds its wall time, whether it
 * runs or is starved. CPU alone reads a starved compiler as quiet: under full load the compiler shares the cores with
 * every busy server thread (and, under `-p cpus`, the quota), so it runs a few % of the time while its queue waits
 * (docs/warmup.md, "A starved compiler"). Where /proc has no per-thread figure the meter falls back to
 * `CompilationMXBean.totalCompilationTime`, the elapsed time of compilations, which is much the same, and [label]
 * says which one a figure is.
 *
 * Compiler threads serve the whole JVM, so the figure includes what the load client's own code costs to compile; a
 * compiler thread that ends between two samples (HotSpot stops idle extra ones) takes its last slice with it.
 */
class JitMeter internal constructor(private val tasks: File) : JitSource {
    constructor() : this(File("/proc/self/task"))

    /**
     * One reading: nanoseconds on a CPU and waiting for one by compiler thread id ([Demand]), or else the elapsed
     * compile time.
     */
    class Sample(internal val threads: Map<Int, Demand>, internal val elapsedNanos: Long) {
        /** Nanoseconds the JIT was at work or waiting to be since [earlier]; a thread started since counts from 0. */
        fun nanosSince(earlier: Sample): Long = since(earlier) { it.run + it.wait } +
            (elapsedNanos - earlier.elapsedNanos).coerceAtLeast(0)

        /** Of [nanosSince], the nanoseconds compiler threads waited on a run queue: 0 where /proc does not say. */
        fun waitSince(earlier: Sample): Long = since(earlier) { it.wait }

        private inline fun since(earlier: Sample, part: (Demand) -> Long): Long = threads.entries.sumOf { (tid, d) ->
            (part(d) - (earlier.threads[tid]?.let(part) ?: 0)).coerceAtLeast(0)
        }
    }

    /** A compiler thread's schedstat: nanoseconds on a CPU, and waiting on a run queue for one. */
    class Demand(val run: Long, val wait: Long)

    private val compilation = ManagementFactory.getCompilationMXBean()?.takeIf {
        it.isCompilationTimeMonitoringSupported
    }

    /** True when figures are the compiler threads' own (schedstat); false: the JVM's elapsed compile time. */
    val perThread: Boolean = compilerThreads().isNotEmpty()

    /** What a figure is, for the console line. */
    override val label: String = if (perThread) {
        "compiler threads' time on or waiting for a CPU"
    } else {
        "elapsed compile time (no per-thread figure here)"
    }

    override fun sample(): Sample = if (perThread) {
        Sample(compilerThreads(), 0)
    } else {
        Sample(emptyMap(), (compilation?.totalCompilationTime ?: 0) * 1_000_000)
    }

    /** Live compiler threads' nanoseconds on and waiting for a CPU, by tid; empty where /proc does not say. */
    private fun compilerThreads(): Map<Int, Demand> {
        val result = HashMap<Int, Demand>()
        for (task in tasks.listFiles().orEmpty()) {
            val tid = task.name.toIntOrNull() ?: continue
            // A thread that ends while it is read is skipped: its files vanish.
            val name = runCatching { File(task, "comm").readText().trim() }.getOrNull() ?: continue
            if (!isCompiler(name)) continue
            // schedstat: time on a CPU, time waiting on a run queue, time slices.
            val demand = runCatching {
                File(task, "schedstat").readText().trim().split(' ').let { Demand(it[0].toLong(), it[1].toLong()) }
            }.getOrNull() ?: continue
            result[tid] = demand
        }
        return result
    }

    companion object {
        /**
         * HotSpot's compiler threads, as the kernel shows their names (cut to 15 characters): `C2 CompilerThre`,
         * `C1 CompilerThre`, and Graal's `JVMCI CompilerT`/`JVMCI-native Co`.
         */
        fun isCompiler(name: String) = name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre") ||
            name.startsWith("JVMCI")
    }
}
