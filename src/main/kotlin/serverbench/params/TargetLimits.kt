package serverbench.params

import serverbench.params.ParamNames as N

/**
 * What a server the benchmark does not start (a target, `-Dserverbench.target`, or the server Hyperfoil's run is
 * pointed at) cannot take from a run's parameters: a CPU budget, the server knobs ([Knobs.SERVER]) and Netty's TLS
 * engine ([Knobs.SSL_PROVIDER]) apply where the server starts. One function for the launcher's check, the fork and
 * Hyperfoil, so they refuse the same things in the same words, each line saying how to apply it there.
 */
object TargetLimits {
    /** How a run reaches a server it does not start, as a refusal words the remedy. */
    class Elsewhere(val via: String, val server: String, val then: String = "")

    /** The budget of [params] (cpus, cpuset) a server elsewhere cannot take, in one line; null if none is set. */
    fun budget(params: Map<String, String>, elsewhere: Elsewhere): String? {
        val set = listOf(N.CPUS, N.CPUSET).mapNotNull { name ->
            params[name]?.takeUnless { LaterParams.isDefault(name, it) }?.let { name to it }
        }
        if (set.isEmpty()) return null
        return "${set.joinToString(" ") { "-p ${it.first}=${it.second}" }} budgets a server the benchmark starts; " +
            "${elsewhere.via} set the budget where ${elsewhere.server} runs: " +
            "scripts/serve ${set.joinToString(" ") { "--${it.first} ${it.second}" }}${elsewhere.then}"
    }

    /** The first thing in [params] a server elsewhere cannot take, in one line; null if it can take the run. */
    fun refusal(params: Map<String, String>, elsewhere: Elsewhere): String? {
        budget(params, elsewhere)?.let { return it }
        // Netty's TLS engine is no Spring property the knob table sets, but it is still chosen where the server starts.
        val (name, value) = params.entries.firstOrNull { (k, v) ->
            (k in Knobs.SERVER || k == Knobs.SSL_PROVIDER) && !Knobs.unset(k, v)
        } ?: return null
        return "-p $name=$value sets a property of a server the benchmark starts; ${elsewhere.via} set it where " +
            "${elsewhere.server} runs: JAVA_OPTS='-D<property>=<value>' scripts/serve ...${elsewhere.then} " +
            "(docs/catalogue.md, \"Server knobs\")"
    }
}
