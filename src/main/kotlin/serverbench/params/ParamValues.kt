package serverbench.params

/** Values and bounds of the `-p` parameters that code compares against or a rule names. */
object ParamValues {
    const val TRUE = "true"
    const val FALSE = "false"

    /** `-p server`: the stacks under test (`fixture.ServerKind` gives each its application). */
    const val TOMCAT = "tomcat"
    const val JETTY = "jetty"
    const val NETTY = "netty"
    val SERVERS = listOf(TOMCAT, JETTY, NETTY)

    /**
     * `-p server=other`: a target none of the three stacks (a Go or Python server, a gateway), or one that does not
     * say its stack; only with `-Dserverbench.target`, where it labels the results and nothing checks it.
     */
    const val OTHER = "other"

    /** `-p protocol`: HTTP/1.1, one request in flight per connection, or HTTP/2 with `-p streams` per connection. */
    const val H1 = "h1"
    const val H2 = "h2"
    const val MAX_STREAMS = 1_000

    /** `-p sslProvider` with `tls=true` on Netty: the JDK's engine or netty-tcnative's. */
    const val JDK = "jdk"
    const val OPENSSL = "openssl"

    /** `-p requestsPerConnection`: keep each connection as long as the server does. */
    const val UNLIMITED_REQUESTS = "unlimited"
    const val MAX_REQUESTS_PER_CONNECTION = 1_000_000

    /** `-p query` (`app.DatabaseClients.Query` runs them). */
    const val NEXTVAL = "nextval"
    const val SELECT_BY_ID = "selectById"
    const val INSERT = "insert"
    val QUERIES = listOf(NEXTVAL, SELECT_BY_ID, INSERT)

    /** `-p dbPool`: within the embedded PostgreSQL's max_connections (200), with room for a session besides. */
    const val MAX_DB_POOL = 150

    /** `-p bodyBytes`: an order's fixed part and a line item or two, ... */
    const val MIN_BODY_BYTES = 512

    /** ... up to what WebFlux's Jackson decoder buffers by default (`spring.codec.max-in-memory-size`, 256 KiB). */
    const val MAX_BODY_BYTES = 256 * 1024
}
