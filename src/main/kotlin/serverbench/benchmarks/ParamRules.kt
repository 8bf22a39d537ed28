package serverbench.benchmarks

import serverbench.app.DatabaseClients
import serverbench.client.LoadSplit
import serverbench.fixture.CpuPlacement
import serverbench.fixture.ServerKind

/**
 * What each `-p` parameter accepts, in one place: the launcher checks every value against these before any fork starts,
 * and the benchmarks check again when they start, for runs that bypass the launcher.
 */
object ParamRules {
    class Rule(val allowed: String, val accepts: (String) -> Boolean)

    private fun integer(min: Int, max: Int) = Rule("an integer from $min to $max") { v ->
        v.toIntOrNull()?.let {
            it in
                min..max
        } ==
            true
    }

    private fun countOrDefault(max: Int) = Rule("'${Knobs.DEFAULT}' or an integer from 1 to $max") { v ->
        v == Knobs.DEFAULT || v == Knobs.NOT_APPLICABLE || v.toIntOrNull()?.let { it in 1..max } == true
    }

    private val CORES = CpuPlacement.machineCores()

    /** Waits longer than this would make every request time out at the client's default timeout anyway. */
    private const val MAX_WAIT_MS = 600_000

    val rules: Map<String, Rule> = mapOf(
        "server" to Rule(ServerKind.allowed) { it in ServerKind.ids },
        "concurrency" to integer(1, 100_000),
        // 0 = closed loop; a million requests a second is far beyond what one client thread can schedule.
        "rate" to integer(0, 1_000_000),
        // Trial division up to 10^7 already takes seconds of CPU per request.
        "limit" to integer(1, 10_000_000),
        "batchSize" to integer(1, Int.MAX_VALUE),
        "delayMs" to integer(1, MAX_WAIT_MS),
        "workMs" to integer(1, MAX_WAIT_MS),
        "failAfterMs" to integer(1, MAX_WAIT_MS),
        "poolSize" to countOrDefault(100_000),
        "query" to Rule(DatabaseClients.Query.ids.joinToString(" or ")) { it in DatabaseClients.Query.ids },
        "dbPool" to integer(1, DatabaseBenchmark.MAX_POOL),
        "bodyBytes" to integer(OrderJson.MIN_BYTES, OrderJson.MAX_BYTES),
        Knobs.TOMCAT_MAX_THREADS to countOrDefault(100_000),
        Knobs.JETTY_MAX_THREADS to countOrDefault(100_000),
        Knobs.NETTY_IO_WORKERS to countOrDefault(1_024),
        TlsParams.TLS to Rule("true or false") { it == "true" || it == "false" },
        H2Params.PROTOCOL to Rule("${H2Params.H1} or ${H2Params.H2}") { it == H2Params.H1 || it == H2Params.H2 },
        H2Params.STREAMS to Rule("an integer from 1 to ${H2Params.MAX_STREAMS}") { v ->
            v == Knobs.NOT_APPLICABLE || v.toIntOrNull()?.let { it in 1..H2Params.MAX_STREAMS } == true
        },
        Knobs.SSL_PROVIDER to Rule("'${Knobs.DEFAULT}', ${TlsParams.JDK} or ${TlsParams.OPENSSL}") {
            it == Knobs.DEFAULT || it == Knobs.NOT_APPLICABLE || it == TlsParams.JDK || it == TlsParams.OPENSSL
        },
        ConnectionParams.REQUESTS_PER_CONNECTION to ConnectionParams.rule,
        Knobs.VIRTUAL_THREADS to Rule("true or false") { it == "true" || it == "false" || it == Knobs.NOT_APPLICABLE },
        CpuPlacement.CLIENT_THREADS to
            Rule("'${LoadSplit.AUTO}' or an integer from 1 to ${LoadSplit.MAX_THREADS}") { v ->
                runCatching { LoadSplit.threads(v) }.isSuccess
            },
        CpuPlacement.CPUS to
            Rule(CpuPlacement.cpusAllowed(CORES)) { runCatching { CpuPlacement.parseCpus(it, CORES) }.isSuccess },
        CpuPlacement.CPUSET to
            Rule(CpuPlacement.cpusetAllowed(CORES)) { runCatching { CpuPlacement.parseCpuset(it, CORES) }.isSuccess },
    )
}
