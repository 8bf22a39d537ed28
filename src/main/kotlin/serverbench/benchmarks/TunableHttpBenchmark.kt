package serverbench.benchmarks

import org.openjdk.jmh.annotations.Param
import org.openjdk.jmh.annotations.Scope
import org.openjdk.jmh.annotations.State
import serverbench.app.JettyThreads
import serverbench.app.NettyIoWorkers
import serverbench.params.Knobs
import serverbench.params.ParamRules
import serverbench.params.ParamValues

/**
 * HTTP benchmarks with the server knobs as parameters, each defaulting to the stack's own default:
 * - `tomcatMaxThreads`: `server.tomcat.threads.max` (Tomcat's default 200). Tomcat only.
 * - `jettyMaxThreads`: requests Jetty runs at once, its pool sized to that plus the connector's own threads
 *   ([JettyThreads]; Boot's default pool is 200 threads, those included). Jetty only.
 * - `nettyIoWorkers`: Reactor Netty's event loops (default max(cores, 4)). Netty only.
 * - `virtualThreads`: `spring.threads.virtual.enabled` (JDK 21+): Tomcat and Jetty serve requests on virtual threads
 *   (Jetty's still bounded: at most `jettyMaxThreads`, by default 200, run at once); WebFlux
 *   runs blocking (non-reactive) handler methods on virtual threads instead of the event loop; `@Async`'s executor uses
 *   them.
 * A knob that does not apply to a run's server shows `n/a` (the launcher sets it, so each server runs once).
 */
@State(Scope.Benchmark)
abstract class TunableHttpBenchmark : HttpBenchmark() {

    @Param(Knobs.DEFAULT)
    var tomcatMaxThreads: String = ""

    @Param(Knobs.DEFAULT)
    var jettyMaxThreads: String = ""

    @Param(Knobs.DEFAULT)
    var nettyIoWorkers: String = ""

    @Param("false")
    var virtualThreads: String = ""

    override fun serverProperties(): Map<String, Any> = buildMap {
        count(Knobs.TOMCAT_MAX_THREADS, tomcatMaxThreads)?.let { put("server.tomcat.threads.max", it) }
        count(Knobs.JETTY_MAX_THREADS, jettyMaxThreads)?.let { put(JettyThreads.PROPERTY, it) }
        count(Knobs.NETTY_IO_WORKERS, nettyIoWorkers)?.let { put(NettyIoWorkers.PROPERTY, it) }
        when (virtualThreads) {
            ParamValues.TRUE -> put("spring.threads.virtual.enabled", "true")

            ParamValues.FALSE, Knobs.NOT_APPLICABLE -> {}

            else -> throw IllegalArgumentException(
                "${Knobs.VIRTUAL_THREADS} must be true or false, was '$virtualThreads'",
            )
        }
    }

    /**
     * A count knob: `default` / `n/a` (unset) or an integer. Checked with the launcher's own rule (the same words as
     * its up-front check), for runs that bypass the launcher.
     */
    protected fun count(name: String, value: String): Int? {
        ParamRules.requireValid(name, value)
        return value.toIntOrNull()
    }
}
