package serverbench.metrics

import java.io.File
import java.lang.management.ManagementFactory

/**
 * How much the JIT is compiling, as the CPU time its compiler threads used: on Linux each `C1/C2 CompilerThread`'s
 * `/proc/self/task/<tid>/schedstat` (nanoseconds on a CPU). Not `CompilationMXBean.totalCompilationTime`: that is the
 * elapsed time of each compilation summed over compiler threads, so a compiler thread that waits for a CPU (a busy
 * machine, a CPU quota) keeps adding to it, and it can exceed the wall time it was read over. Where /proc has no
 * per-thread figure the meter falls back to that elapsed time, and [label] says which one a figure is.
 *
 * Compiler threads serve the whole JVM, so the figure includes what the load client's own code costs to compile; a
 * compiler thread that ends between two samples (HotSpot stops idle extra ones) takes its last slice with it.
 */
class JitMeter internal constructor(private val tasks: File) {
    constructor() : this(File("/proc/self/task"))

    /** One reading: CPU nanoseconds by compiler thread id, or the elapsed compile time where there are none. */
    class Sample internal constructor(internal val threads: Map<Int, Long>, internal val elapsedNanos: Long) {
        /** Nanoseconds of JIT work since [earlier]; a compiler thread started since then counts from 0. */
        fun nanosSince(earlier: Sample): Long =
            threads.entries.sumOf { (tid, ns) -> (ns - (earlier.threads[tid] ?: 0)).coerceAtLeast(0) } +
                (elapsedNanos - earlier.elapsedNanos).coerceAtLeast(0)
    }

    private val compilation = ManagementFactory.getCompilationMXBean()?.takeIf {
        it.isCompilationTimeMonitoringSupported
    }

    /** True when figures are the compiler threads' CPU; false when they are the JVM's elapsed compile time. */
    val byCpu: Boolean = compilerThreads().isNotEmpty()

    /** What a figure is, for the console line. */
    val label: String = if (byCpu) "compiler threads' CPU" else "elapsed compile time (no per-thread CPU here)"

    fun sample(): Sample = if (byCpu) {
        Sample(compilerThreads(), 0)
    } else {
        Sample(emptyMap(), (compilation?.totalCompilationTime ?: 0) * 1_000_000)
    }

    /** Live compiler threads' CPU nanoseconds by tid; empty where /proc does not say (not Linux, no schedstat). */
    private fun compilerThreads(): Map<Int, Long> {
        val result = HashMap<Int, Long>()
        for (task in tasks.listFiles().orEmpty()) {
            val tid = task.name.toIntOrNull() ?: continue
            // A thread that ends while it is read is skipped: its files vanish.
            val name = runCatching { File(task, "comm").readText().trim() }.getOrNull() ?: continue
            if (!isCompiler(name)) continue
            val onCpu = runCatching {
                File(task, "schedstat").readText().trim().substringBefore(' ').toLong()
            }.getOrNull() ?: continue
            result[tid] = onCpu
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
