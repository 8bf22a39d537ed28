package serverbench.benchmarks

/**
 * A benchmark method that needs a newer JDK than 17 (virtual threads need 21). On an older benchmark JVM the launcher
 * skips its runs with a one-line notice instead of failing them.
 */
@Target(AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.RUNTIME)
annotation class RequiresJdk(val version: Int, val why: String)

/** Server knobs: `@Param` names whose value only means something on one stack (see [Knobs]). */
object Knobs {
    /** The stack's own default: the knob is not set. */
    const val DEFAULT = "default"
    /** Set by the launcher on runs of the other stack, where the knob does not apply. */
    const val NOT_APPLICABLE = "n/a"

    const val TOMCAT_MAX_THREADS = "tomcatMaxThreads"
    const val NETTY_IO_WORKERS = "nettyIoWorkers"
    const val VIRTUAL_THREADS = "virtualThreads"

    /** The server a knob applies to, or null if it applies to both. */
    fun stackOf(param: String): String? = when (param) {
        TOMCAT_MAX_THREADS -> "tomcat"
        NETTY_IO_WORKERS -> "netty"
        else -> null
    }
}
