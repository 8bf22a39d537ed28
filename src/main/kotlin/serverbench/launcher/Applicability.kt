package serverbench.launcher

import org.springframework.boot.WebApplicationType
import serverbench.benchmarks.ReactiveOnly
import serverbench.benchmarks.RequiresJdk
import serverbench.fixture.ServerKind
import serverbench.params.Knobs
import serverbench.params.ParamNames
import serverbench.params.ParamScope
import java.io.File

/**
 * Which planned runs make sense, decided before any server starts: a knob of the other stack is set to "n/a" (so
 * `-p tomcatMaxThreads=1,200` does not run netty twice), and runs that need a newer JDK than the benchmark JVM's are
 * skipped with one line saying why and how to run them.
 */
object Applicability {
    class Outcome(val runs: List<Plan.Run>, val notices: List<String>)

    fun apply(planned: List<Plan.Run>, jdk: Int): Outcome {
        val notices = LinkedHashSet<String>()
        val seen = HashSet<String>()
        val runs = ArrayList<Plan.Run>()
        val skipped = LinkedHashMap<String, Int>()
        val notReactive = LinkedHashMap<String, Int>()
        for (original in planned) {
            val run = withinScope(original, notices)
            val server = run.params[ParamNames.SERVER]
            val needed = requiredJdk(run)
            if (needed != null && jdk < needed.first) {
                val key = "${run.benchmark.removePrefix("serverbench.benchmarks.")}: ${needed.second}"
                skipped[key] = (skipped[key] ?: 0) + 1
                continue
            }
            if (!seen.add(run.key)) continue
            val wrongStack = wrongStack(run, server)
            if (wrongStack != null) {
                val key = "${run.benchmark.removePrefix("serverbench.benchmarks.")} on $server: $wrongStack"
                notReactive[key] = (notReactive[key] ?: 0) + 1
                continue
            }
            runs += run
        }
        notices += skipNotices(notReactive, skipped, jdk)
        return Outcome(runs, notices.toList())
    }

    /** [original] with its parameters that do not apply to it set to n/a; a line for each the user would miss. */
    private fun withinScope(original: Plan.Run, notices: MutableSet<String>): Plan.Run {
        var run = original
        for ((name, value) in original.params) {
            if (value == Knobs.NOT_APPLICABLE) continue
            val outside = ParamScope.outside(name, original.params) ?: continue
            if (!ParamScope.quiet(name, value)) notices += "serverbench: $name $outside"
            run = run.with(name, Knobs.NOT_APPLICABLE)
        }
        return run
    }

    /** One line per kind of skipped run: [notReactive] stacks, then runs that need a newer JDK than [jdk]. */
    private fun skipNotices(notReactive: Map<String, Int>, skipped: Map<String, Int>, jdk: Int): List<String> {
        fun runs(n: Int) = "$n run${if (n == 1) "" else "s"}"
        return notReactive.map { (what, n) -> "serverbench: skipped ${runs(n)} of $what" } +
            skipped.map { (what, n) ->
                "serverbench: skipped ${runs(n)} of $what, which needs a newer JDK than this " +
                    "benchmark JVM's $jdk (run with JDK 21+: its java -jar, or -jvm /path/to/jdk-21+/bin/java)"
            }
    }

    /**
     * Why [run] cannot run on [server]: its method is for reactive stacks only, or its own application's web type
     * allows other stacks (a stack the user named is refused before this, by [OwnApplicationCheck]); or null.
     */
    private fun wrongStack(run: Plan.Run, server: String?): String? {
        if (server == null) return null
        return reactiveOnly(run)?.takeIf { !reactive(server) } ?: OwnApplicationCheck.skip(run)
    }

    /** Why a run's method is for reactive stacks only ([ReactiveOnly]), or null. */
    private fun reactiveOnly(run: Plan.Run): String? = runCatching {
        Class.forName(run.className).methods.firstOrNull {
            it.name == run.method
        }?.getAnnotation(ReactiveOnly::class.java)
    }.getOrNull()?.why

    private fun reactive(server: String) = ServerKind.entries.firstOrNull { it.id == server }
        ?.let { it.webType == WebApplicationType.REACTIVE } ?: true

    /** (version, why) a run needs, from the method's [RequiresJdk] or from its parameters ([ParamScope]). */
    private fun requiredJdk(run: Plan.Run): Pair<Int, String>? {
        val annotation = runCatching {
            Class.forName(run.className).methods.firstOrNull {
                it.name == run.method
            }?.getAnnotation(RequiresJdk::class.java)
        }.getOrNull()
        if (annotation != null) return annotation.version to annotation.why
        return ParamScope.requiredJdk(run.params)
    }

    /** Feature version of the JVM the forks will use: `-jvm` if given (read from its release file), else this one. */
    fun forkJdk(jvm: String?): Int {
        if (jvm == null) return Runtime.version().feature()
        val home = File(jvm).absoluteFile.parentFile?.parentFile
        val release =
            home?.let { File(it, "release") }?.takeIf { it.isFile }?.readText() ?: return Runtime.version().feature()
        return Regex("JAVA_VERSION=\"(?:1\\.)?(\\d+)").find(release)?.groupValues?.get(1)?.toIntOrNull()
            ?: Runtime.version().feature()
    }
}
