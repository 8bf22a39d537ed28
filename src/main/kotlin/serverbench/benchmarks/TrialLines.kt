package serverbench.benchmarks

import serverbench.client.LoadClient
import serverbench.client.LoadGroup
import serverbench.fixture.CpuBudget

/** The lines a trial's setup prints about its load and its CPU budget: what each figure of the run holds under. */
internal object TrialLines {
    /** "closed loop, 64 connections on 2 client threads (32 + 32; -p clientThreads=2) (...) (epoll)". */
    fun load(client: LoadGroup, asked: String, tls: Boolean = false): String {
        val split = client.split
        val threads = if (split.threads == 1) "1 client thread" else "${split.threads} client threads"
        val how = "$threads (" + (if (split.threads > 1) split.describe() + "; " else "") + "-p clientThreads=$asked)"
        val rate = split.rates.sum()
        val h2 = H2Params.describe(client.connections, if (client.http2) client.streams else 0, tls)
        val what = h2 ?: "${client.connections} connections"
        val model = if (rate == 0.0) {
            "closed loop, $what on $how (latency from each actual send)"
        } else {
            "open loop, ${LoadClient.rateText(rate)} req/s on up to $what on $how " +
                "(latency.* from each scheduled send, corrected for coordinated omission; " +
                "latency.uncorrected.* from the actual send)"
        }
        return "$model (${client.transport.name})"
    }

    fun budget(b: CpuBudget): String = "serverbench: CPU budget ${b.placement}: ${b.serverThreads()} threads of this " +
        "JVM in the server's group (${b.describe()}), ${b.clientThreads().size} outside it (the load client's, and " +
        "the ${b.harnessThreads} of the harness that ran before the server, JMH's among them); " +
        "availableProcessors() = ${Runtime.getRuntime().availableProcessors()}"
}
