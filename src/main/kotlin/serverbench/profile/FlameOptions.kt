package serverbench.profile

import joptsimple.OptionException
import joptsimple.OptionParser
import joptsimple.OptionSet
import joptsimple.OptionSpec
import org.openjdk.jmh.profile.ProfilerException
import java.io.File
import java.io.StringWriter

/**
 * `-prof flame:<options>` read the way JMH's own profilers read theirs (its `ProfilerUtils.parseInitLine`, which is
 * not public): jopt-simple over the `;`-separated `name=value` items, each given as `-name=value`, so every option is
 * declared once with its description, `flame:help` prints them all, and a bad one is one [ProfilerException] line.
 */
class FlameOptions(initLine: String) {
    // No abbreviations: jopt-simple would otherwise read `colour=red` as `-c olour=red`, that is cstack.
    private val parser = OptionParser(false)
    private val eventSpec = option(
        "event",
        "What to sample: ${EVENTS.joinToString("|")} (default: wall for the " +
            "families whose handlers wait, cpu otherwise)",
        "event",
    )
    private val intervalSpec = option(
        "interval",
        "Sampling interval in the event's units (ns, or bytes for alloc; " +
            "async-profiler's suffixes such as 10ms or 512k work)",
        "n",
    )
    private val threadsSpec = option("threads", "server: leave out the load client's thread; all: every thread", "who")
    private val dirSpec = option("dir", "Directory the graphs go to", "path")
    private val cstackSpec =
        option("cstack", "async-profiler's native stack walking (default vm for cpu and wall)", "mode")
    private val overheadSpec: OptionSpec<String> = parser.accepts(
        "overhead",
        "Measure profiling's cost in ABBA " +
            "blocks of four measurement iterations (needs -i 8 or more)",
    ).withOptionalArg()
    private val sessionSpec = option("session", "Set by the launcher: this session's directory under dir", "name")
    private val pidSpec = option(
        "pid",
        "Set by the launcher with a -Dserverbench.target that scripts/serve started on this machine: the target's " +
            "JVM, which async-profiler attaches to",
        "n",
    )
    private val helpSpec = parser.accepts("help", "Print these options")

    init {
        // As `-prof flame:` takes them (name=value), not as jopt-simple's own --name.
        parser.formatHelpWith { options ->
            val shown = options.values.distinct().filterNot { it.representsNonOptions() }
                .map { d ->
                    d.options().first() + (if (d.requiresArgument()) "=<${d.argumentDescription()}>" else "") to
                        d
                }
            val width = shown.maxOf { it.first.length } + 2
            shown.joinToString("\n", postfix = "\n") { (name, d) -> "  " + name.padEnd(width) + d.description() }
        }
    }

    private val set: OptionSet = try {
        val items = initLine.split(';').map { it.trim() }.filter { it.isNotEmpty() }
        items.map { it.substringBefore('=') }.firstOrNull { it !in parser.recognizedOptions() }?.let {
            throw ProfilerException("flame: unknown option '$it'; ${allowed()}")
        }
        parser.parse(*items.map { "-$it" }.toTypedArray())
    } catch (e: OptionException) {
        throw ProfilerException("flame: ${e.message}; ${allowed()}")
    }

    /** `flame:help`: the options and what each does, as JMH's profilers print theirs. */
    val help: String? = if (set.has(helpSpec)) StringWriter().also { parser.printHelpOn(it) }.toString() else null

    val event: String? = set.valueOf(eventSpec)
    val interval: String? = set.valueOf(intervalSpec)
    val threads: String = set.valueOf(threadsSpec) ?: "server"
    val dir = File(set.valueOf(dirSpec) ?: "profiles")
    val cstack: String? = set.valueOf(cstackSpec)
    val session: String? = set.valueOf(sessionSpec)

    /** The target's process to attach to ([AttachedProfiler]); null: profile this JVM. */
    val pid: Long? = set.valueOf(pidSpec)?.let { p -> p.toLongOrNull()?.takeIf { it > 0 } ?: -1L }
    val overhead: Boolean = set.has(overheadSpec) && set.valueOf(overheadSpec) != "false"

    init {
        set.nonOptionArguments().firstOrNull()?.let {
            throw ProfilerException("flame: unhandled option '$it'; ${allowed()}")
        }
        check(set.valueOf(overheadSpec) in setOf(null, "", "true", "false")) {
            "overhead takes no value (or true/false), was '${set.valueOf(overheadSpec)}'"
        }
        check(event == null || event in EVENTS) { "event must be one of ${EVENTS.joinToString(", ")}, was '$event'" }
        check(threads in setOf("server", "all")) { "threads must be server or all, was '$threads'" }
        check(pid != -1L) { "pid must be a process id, was '${set.valueOf(pidSpec)}'" }
    }

    /**
     * What async-profiler's `start` or `resume` is given for [event]: the engine's event, the interval, and the stack
     * walking (`vm` for the CPU events and wall unless `cstack` says otherwise). One place for a fork's profiler and a
     * live comparison's.
     */
    fun sampling(event: String): String = buildString {
        append(",event=${SamplingEngines.profilerEvent(event)}")
        interval?.let { append(",interval=$it") }
        val stack = cstack ?: if (event in SamplingEngines.CPU_EVENTS + "wall") "vm" else null
        stack?.let { append(",cstack=$it") }
    }

    private fun option(name: String, description: String, value: String): OptionSpec<String> =
        parser.accepts(name, description).withRequiredArg().describedAs(value)

    private fun allowed() = "allowed: event, interval, threads, dir, cstack, overhead (flame:help describes them)"

    private fun check(ok: Boolean, message: () -> String) {
        if (!ok) throw ProfilerException("flame: ${message()}")
    }

    companion object {
        /** ctimer, itimer and cpu-clock (perf_events) are cpu sampling with a named engine; `cpu` is ctimer on Linux.
         * */
        val EVENTS = listOf("cpu", "wall", "alloc", "lock", "ctimer", "itimer", "cpu-clock")
    }
}
