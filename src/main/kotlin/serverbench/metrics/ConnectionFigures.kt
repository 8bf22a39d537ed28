package serverbench.metrics

import org.openjdk.jmh.results.Result
import serverbench.client.ClientReport

/**
 * Connections and TLS handshakes per second of an iteration (docs/tls.md, "Handshakes"): `client.connectsPerSec`
 * where the client opened connections in it (`-p requestsPerConnection`, Tomcat's close every 100th response), and
 * over TLS `client.tlsFullPerSec` / `client.tlsResumedPerSec` where it made handshakes, the resumed ones at 0 too so
 * that a run with full handshakes only says so.
 */
object ConnectionFigures {
    const val CONNECTS = "client.connectsPerSec"
    const val TLS_FULL = "client.tlsFullPerSec"
    const val TLS_RESUMED = "client.tlsResumedPerSec"

    /** The report's columns for them, shown in a table where a row has them. */
    val COLUMNS = listOf(CONNECTS to "connects/s", TLS_FULL to "full TLS handshakes/s", TLS_RESUMED to "resumed/s")

    fun results(client: ClientReport): List<Result<*>> {
        val h = client.handshakes
        val wall = client.wallNanos.toDouble()
        val out = ArrayList<Result<*>>()
        if (h.connects > 0) out += RatioResult(CONNECTS, "1/s", h.connects.toDouble(), wall, scale = 1e9)
        if (h.tlsFull + h.tlsResumed > 0) {
            out += RatioResult(TLS_FULL, "1/s", h.tlsFull.toDouble(), wall, scale = 1e9)
            out += RatioResult(TLS_RESUMED, "1/s", h.tlsResumed.toDouble(), wall, scale = 1e9)
        }
        return out
    }
}
