package serverbench.profile

import java.io.File

/**
 * Which async-profiler engine samples an event here, and whether it can: `cpu` is ctimer on Linux (see
 * [FlameProfiler] for why), `cpu-clock` needs perf_events, which the kernel may forbid.
 */
object SamplingEngines {
    /** Events that sample CPU time, each through a named engine (see [FlameOptions.EVENTS]). */
    val CPU_EVENTS = setOf("cpu", "ctimer", "itimer", "cpu-clock")
    private val linux = System.getProperty("os.name") == "Linux"

    /** What async-profiler is asked for: our `cpu` is its ctimer where ctimer exists (Linux), else its own `cpu`. */
    fun profilerEvent(event: String) = if (event == "cpu" && linux) "ctimer" else event

    /** A one-line reason why this event cannot sample in this process, or null. */
    fun unavailable(event: String): String? {
        if (event != "cpu-clock") return null
        if (!linux) return "flame: event=cpu-clock needs Linux perf_events; use event=cpu"
        val paranoid = perfEventParanoid()
        return if (paranoid != null && paranoid > 2 && !perfCapable()) {
            "flame: event=cpu-clock needs perf_events, which perf_event_paranoid=$paranoid forbids to this process " +
                "(allow it with: sudo sysctl kernel.perf_event_paranoid=2); event=cpu samples without them"
        } else {
            null
        }
    }

    private fun perfEventParanoid(): Int? = runCatching {
        File("/proc/sys/kernel/perf_event_paranoid").readText().trim().toInt()
    }.getOrNull()

    /** CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set: the kernel then ignores perf_event_paranoid. */
    private fun perfCapable(): Boolean {
        val hex = runCatching { File("/proc/self/status").readLines().first { it.startsWith("CapEff:") } }
            .getOrNull()?.substringAfter(':')?.trim() ?: return false
        val caps = hex.toULongOrNull(16) ?: return false
        return (caps shr 21) and 1uL == 1uL || (caps shr 38) and 1uL == 1uL
    }

    /**
     * The sampling engine behind an event. async-profiler does not report it; `cpu-clock` is perf_events or an error
     * at start, and the inference below applies the kernel's rule (capabilities, then perf_event_paranoid) to say
     * which frames it can see.
     */
    fun engine(event: String): String = when (event) {
        "cpu" -> if (linux) {
            "ctimer (serverbench's cpu on Linux: per-thread CPU-time timers, user-space stacks; " +
                "event=cpu-clock for perf_events)"
        } else {
            "itimer (async-profiler's cpu on ${System.getProperty("os.name")})"
        }

        "cpu-clock" -> {
            val paranoid = perfEventParanoid()
            when {
                perfCapable() -> "perf_events (this process has CAP_PERFMON or CAP_SYS_ADMIN: kernel frames allowed)"

                paranoid != null && paranoid <= 1 ->
                    "perf_events (perf_event_paranoid=$paranoid: kernel frames allowed)"

                else -> "perf_events (perf_event_paranoid=$paranoid: user-space stacks only)"
            }
        }

        "ctimer" -> "ctimer (chosen: per-thread CPU-time timers, signals)"

        "itimer" -> "itimer (chosen: one process-wide setitimer, signals)"

        "wall" -> "wall-clock timer (all threads, running or waiting)"

        "alloc" -> "TLAB allocation callbacks"

        else -> "JVM lock contention events"
    }
}
