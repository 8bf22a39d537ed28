package serverbench.metrics

import org.openjdk.jmh.results.Result
import serverbench.client.ClientReport

/**
 * Connections and TLS handshakes per second of an iteration (docs/tls.md, "Handshakes"): `client.connectsPerSec`
 * (TCP connections opened: `-p requestsPerConnection`, Tomcat's close every 100th response, an h2 GOAWAY), and
 * `client.tlsFullPerSec` / `client.tlsResumedPerSec`. Every measured iteration reports them, 0 included, so that the
 * run's figure is over all of its measured time, not only over the iterations that opened a connection; the report
 * shows them where a row has one above 0 ([MetricSpec.Shown.ABOVE_ZERO]).
 */
object ConnectionFigures {
    val CONNECTS = MetricCatalogue.CONNECTS.name
    val TLS_FULL = MetricCatalogue.TLS_FULL.name
    val TLS_RESUMED = MetricCatalogue.TLS_RESUMED.name

    fun results(client: ClientReport): List<Result<*>> {
        val h = client.handshakes
        val wall = client.wallNanos.toDouble()
        val out = ArrayList<Result<*>>()
        out += MetricCatalogue.CONNECTS.ratio(h.connects.toDouble(), wall, scale = 1e9)
        out += MetricCatalogue.TLS_FULL.ratio(h.tlsFull.toDouble(), wall, scale = 1e9)
        out += MetricCatalogue.TLS_RESUMED.ratio(h.tlsResumed.toDouble(), wall, scale = 1e9)
        return out
    }
}
