package serverbench.client

/**
 * Connections a client opened in an iteration, and its TLS handshakes by kind ([TlsHandshakes]): what
 * `-p requestsPerConnection` makes the client pay on purpose, and Tomcat's close every 100th response by default.
 */
data class Handshakes(
    /** TCP connections opened (each replacement included). */
    val connects: Long = 0,
    /** TLS handshakes that completed with the server's certificate checked. */
    val tlsFull: Long = 0,
    /** TLS handshakes that completed by resuming an earlier session (TLS 1.3: the server's ticket as a PSK). */
    val tlsResumed: Long = 0,
) {
    operator fun plus(o: Handshakes) = Handshakes(connects + o.connects, tlsFull + o.tlsFull, tlsResumed + o.tlsResumed)
}
