package serverbench.benchmarks

/** Server knobs: `@Param` names whose value only means something on one stack (see [Knobs]). */
object Knobs {
    /** The stack's own default: the knob is not set. */
    const val DEFAULT = "default"

    /** Set by the launcher on runs of the other stack, where the knob does not apply. */
    const val NOT_APPLICABLE = "n/a"

    const val TOMCAT_MAX_THREADS = "tomcatMaxThreads"
    const val JETTY_MAX_THREADS = "jettyMaxThreads"
    const val NETTY_IO_WORKERS = "nettyIoWorkers"
    const val VIRTUAL_THREADS = "virtualThreads"

    /** Netty's TLS engine with `tls=true` ([TlsParams]). */
    const val SSL_PROVIDER = "sslProvider"

    /** A knob left at its stack's default, or not applicable to this run's stack: it says nothing about the run. */
    fun unset(param: String, value: String?): Boolean =
        value == null || value == DEFAULT || value == NOT_APPLICABLE || (param == VIRTUAL_THREADS && value == "false")

    /**
     * The parameters whose values differ between these runs, with unset knobs alike: a table or a console line
     * names those, and a Tomcat row's `nettyIoWorkers=n/a` beside a Netty row's `default` is no difference.
     */
    fun varying(params: List<Map<String, String>>): List<String> = params.flatMap { it.keys }.distinct()
        .filter { p -> params.map { m -> m[p]?.takeUnless { unset(p, it) } }.distinct().size > 1 }

    /** The server a knob applies to, or null if it applies to every one. */
    fun stackOf(param: String): String? = when (param) {
        TOMCAT_MAX_THREADS -> "tomcat"
        JETTY_MAX_THREADS -> "jetty"
        NETTY_IO_WORKERS, SSL_PROVIDER -> "netty"
        else -> null
    }
}
