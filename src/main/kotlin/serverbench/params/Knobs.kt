package serverbench.params

/**
 * Server knobs: `@Param` names whose value sets a property of the server, each with the stack it applies to. One
 * table, read by the launcher (which stacks a run applies to), the target check and Hyperfoil (which a server started
 * elsewhere cannot take), so that a knob added here is known to all of them.
 */
object Knobs {
    /** The stack's own default: the knob is not set. */
    const val DEFAULT = "default"

    /** Set by the launcher on runs of the other stack, where the knob does not apply. */
    const val NOT_APPLICABLE = "n/a"

    const val TOMCAT_MAX_THREADS = "tomcatMaxThreads"
    const val JETTY_MAX_THREADS = "jettyMaxThreads"
    const val NETTY_IO_WORKERS = "nettyIoWorkers"
    const val VIRTUAL_THREADS = "virtualThreads"
    const val POOL_SIZE = "poolSize"

    /** Netty's TLS engine with `tls=true`: the client's protocol is its condition, not a Spring property it sets. */
    const val SSL_PROVIDER = "sslProvider"

    /** Knob -> the stack it applies to (null: every stack). */
    private val STACKS: Map<String, String?> = mapOf(
        TOMCAT_MAX_THREADS to ParamValues.TOMCAT,
        JETTY_MAX_THREADS to ParamValues.JETTY,
        NETTY_IO_WORKERS to ParamValues.NETTY,
        VIRTUAL_THREADS to null,
        POOL_SIZE to null,
    )

    /** Knobs that set the server's Spring properties (benchmarks.TunableHttpBenchmark, PooledHttpBenchmark). */
    val SERVER: Set<String> = STACKS.keys

    /** A knob left at its stack's default, or not applicable to this run's stack: it says nothing about the run. */
    fun unset(param: String, value: String?): Boolean = value == null || value == DEFAULT ||
        value == NOT_APPLICABLE || (param == VIRTUAL_THREADS && value == ParamValues.FALSE)

    /**
     * The parameters whose values differ between these runs, with unset knobs alike: a table or a console line
     * names those, and a Tomcat row's `nettyIoWorkers=n/a` beside a Netty row's `default` is no difference.
     */
    fun varying(params: List<Map<String, String>>): List<String> = params.flatMap { it.keys }.distinct()
        .filter { p -> params.map { m -> m[p]?.takeUnless { unset(p, it) } }.distinct().size > 1 }

    /** The server a knob applies to, or null if it applies to every one. */
    fun stackOf(param: String): String? = if (param == SSL_PROVIDER) ParamValues.NETTY else STACKS[param]
}
