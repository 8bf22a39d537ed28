package serverbench.metrics

import org.openjdk.jmh.results.Result
import serverbench.client.ClientReport

/**
 * Connections and TLS handshakes per second of an iteration (docs/tls.md, "Handshakes"): `client.connectsPerSec`
 * (TCP connections opened: `-p requestsPerConnection`, Tomcat's close every 100th response, an h2 GOAWAY), and
 * `client.tlsFullPerSec` / `client.tlsResumedPerSec`. Every measured iteration reports them, 0 included, so that the
 * run's figure is over all of its measured time, not only over the iterations that opened a connection; the report
 * shows them where a row has one above 0.
 */
object ConnectionFigures {
    const val CONNECTS = "client.connectsPerSec"
    const val TLS_FULL = "client.tlsFullPerSec"
    const val TLS_RESUMED = "client.tlsResumedPerSec"

    /** The report's columns for them, shown in a table where a row has them. */
    val COLUMNS = listOf(CONNECTS to "connects/s", TLS_FULL to "full TLS handshakes/s", TLS_RESUMED to "resumed/s")

    /**
     * The report's [columns] that some of [runs] has ([score] not null); the connection figures, which every run has,
     * only where one is above 0.
     */
    fun <R> shown(columns: List<Pair<String, String>>, runs: List<R>, score: (R, String) -> Double?) =
        columns.filter { (metric, _) ->
            runs.any { r -> score(r, metric)?.let { it > 0 || COLUMNS.none { c -> c.first == metric } } == true }
        }

    fun results(client: ClientReport): List<Result<*>> {
        val h = client.handshakes
        val wall = client.wallNanos.toDouble()
        val out = ArrayList<Result<*>>()
        out += RatioResult(CONNECTS, "1/s", h.connects.toDouble(), wall, scale = 1e9)
        out += RatioResult(TLS_FULL, "1/s", h.tlsFull.toDouble(), wall, scale = 1e9)
        out += RatioResult(TLS_RESUMED, "1/s", h.tlsResumed.toDouble(), wall, scale = 1e9)
        return out
    }
}
