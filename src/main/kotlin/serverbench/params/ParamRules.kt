package serverbench.params

import serverbench.params.ParamNames as N
import serverbench.params.ParamValues as V

/**
 * What each `-p` parameter accepts, in one place: the launcher checks every value against these before any fork starts,
 * and the benchmarks check again when they start ([requireValid]), for runs that bypass the launcher.
 */
object ParamRules {
    class Rule(val allowed: String, val accepts: (String) -> Boolean)

    private fun integer(min: Int, max: Int) = Rule("an integer from $min to $max") { v ->
        v.toIntOrNull()?.let { it in min..max } == true
    }

    private fun countOrDefault(max: Int) = Rule("'${Knobs.DEFAULT}' or an integer from 1 to $max") { v ->
        v == Knobs.DEFAULT || v == Knobs.NOT_APPLICABLE || v.toIntOrNull()?.let { it in 1..max } == true
    }

    private fun oneOf(values: List<String>) =
        Rule(values.dropLast(1).joinToString(", ") + " or " + values.last()) { it in values }

    private val CORES = CpuParams.machineCores()

    /** Waits longer than this would make every request time out at the client's default timeout anyway. */
    private const val MAX_WAIT_MS = 600_000

    val rules: Map<String, Rule> = mapOf(
        N.SERVER to oneOf(V.SERVERS + V.OTHER),
        N.CONCURRENCY to integer(1, 100_000),
        // The file itself is read and checked by the launcher (one line with its file and line number).
        N.WORKLOAD to Rule("the path of a .http file (docs/http-files.md)") { it.endsWith(".http") },
        // 0 = closed loop; a million requests a second is far beyond what one client thread can schedule.
        N.RATE to integer(0, 1_000_000),
        N.OBJECTIVE to Rule(Objective.ALLOWED) { Objective.accepts(it) },
        // Trial division up to 10^7 already takes seconds of CPU per request.
        N.LIMIT to integer(1, 10_000_000),
        N.BATCH_SIZE to integer(1, Int.MAX_VALUE),
        N.DELAY_MS to integer(1, MAX_WAIT_MS),
        N.WORK_MS to integer(1, MAX_WAIT_MS),
        N.FAIL_AFTER_MS to integer(1, MAX_WAIT_MS),
        N.QUERY to Rule(V.QUERIES.joinToString(" or ")) { it in V.QUERIES },
        N.DB_POOL to integer(1, V.MAX_DB_POOL),
        N.BODY_BYTES to integer(V.MIN_BODY_BYTES, V.MAX_BODY_BYTES),
        Knobs.TOMCAT_MAX_THREADS to countOrDefault(100_000),
        Knobs.JETTY_MAX_THREADS to countOrDefault(100_000),
        Knobs.NETTY_IO_WORKERS to countOrDefault(1_024),
        Knobs.POOL_SIZE to countOrDefault(100_000),
        Knobs.VIRTUAL_THREADS to Rule("true or false") { it == V.TRUE || it == V.FALSE || it == Knobs.NOT_APPLICABLE },
        N.TLS to Rule("true or false") { it == V.TRUE || it == V.FALSE },
        N.PROTOCOL to Rule("${V.H1} or ${V.H2}") { it == V.H1 || it == V.H2 },
        N.STREAMS to Rule("an integer from 1 to ${V.MAX_STREAMS}") { v ->
            v == Knobs.NOT_APPLICABLE || v.toIntOrNull()?.let { it in 1..V.MAX_STREAMS } == true
        },
        Knobs.SSL_PROVIDER to Rule("'${Knobs.DEFAULT}', ${V.JDK} or ${V.OPENSSL}") {
            it == Knobs.DEFAULT || it == Knobs.NOT_APPLICABLE || it == V.JDK || it == V.OPENSSL
        },
        N.REQUESTS_PER_CONNECTION to Rule(
            "'${V.UNLIMITED_REQUESTS}' or an integer from 1 to ${V.MAX_REQUESTS_PER_CONNECTION}",
        ) { v -> v == V.UNLIMITED_REQUESTS || v.toIntOrNull()?.let { it in 1..V.MAX_REQUESTS_PER_CONNECTION } == true },
        N.CLIENT_THREADS to
            Rule("'${ClientThreadsParam.AUTO}' or an integer from 1 to ${ClientThreadsParam.MAX_THREADS}") { v ->
                runCatching { ClientThreadsParam.count(v) }.isSuccess
            },
        N.CPUS to Rule(CpuParams.cpusAllowed(CORES)) { runCatching { CpuParams.parseCpus(it, CORES) }.isSuccess },
        N.CPUSET to Rule(CpuParams.cpusetAllowed(CORES)) { runCatching { CpuParams.parseCpuset(it, CORES) }.isSuccess },
    )

    /** Every parameter a benchmark may declare: a `@Param` without a rule here is a test failure (ParamNamesTest). */
    val names: Set<String> get() = rules.keys

    /** [value] of [name] as the fork checks it: throws [IllegalArgumentException] in the launcher's words. */
    fun requireValid(name: String, value: String) {
        val rule = rules[name] ?: return
        require(rule.accepts(value)) { "$name must be ${rule.allowed}, was '$value'" }
    }
}
