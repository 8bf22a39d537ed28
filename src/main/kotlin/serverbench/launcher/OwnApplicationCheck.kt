package serverbench.launcher

import serverbench.benchmarks.OwnCode
import serverbench.fixture.ServerKind
import serverbench.params.ParamNames

/**
 * The stack a user's own application ([serverbench.benchmarks.ServerApplication]) can run on, checked before any
 * fork: a `-p server` the user named that its web type does not allow is refused in one line; the same stack coming
 * from the parameter's default (`netty,tomcat`) is skipped with a notice instead, so a plain run runs what it can.
 */
object OwnApplicationCheck {
    /** The first named stack a planned run's application cannot run (or its bad web type), as one line; or null. */
    fun problem(given: Map<String, List<String>>, runs: List<Plan.Run>): String? {
        val named = given[ParamNames.SERVER] ?: return badWebType(runs)
        for (run in runs) {
            val server = run.params[ParamNames.SERVER]?.takeIf { it in named } ?: continue
            refusal(run, server)?.let { return "-p ${ParamNames.SERVER}=$server: $it" }
        }
        return null
    }

    /** Why [run] is skipped: its own application cannot run on its stack; null when it can, or has none. */
    fun skip(run: Plan.Run): String? = run.params[ParamNames.SERVER]?.let { refusal(run, it) }

    private fun badWebType(runs: List<Plan.Run>): String? = runs.map { it.className }.distinct().firstNotNullOfOrNull {
        try {
            sources(it)?.ownWebType()
            null
        } catch (e: IllegalArgumentException) {
            e.message
        }
    }

    private fun refusal(run: Plan.Run, server: String): String? {
        val kind = ServerKind.entries.firstOrNull { it.id == server } ?: return null
        return try {
            sources(run.className)?.refusal(kind)
        } catch (e: IllegalArgumentException) {
            e.message
        }
    }

    private fun sources(className: String) =
        runCatching { Class.forName(className, false, javaClass.classLoader) }.getOrNull()?.let { OwnCode.sources(it) }
}
