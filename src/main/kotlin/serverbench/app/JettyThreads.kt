package serverbench.app

import org.eclipse.jetty.server.Server
import org.eclipse.jetty.server.ServerConnector
import org.eclipse.jetty.util.thread.QueuedThreadPool
import org.eclipse.jetty.util.thread.VirtualThreadPool
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty
import org.springframework.boot.jetty.JettyServerCustomizer
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory
import org.springframework.boot.web.server.WebServerFactoryCustomizer
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.env.Environment

/**
 * The `jettyMaxThreads` knob: how many requests Jetty runs at once, as `tomcatMaxThreads` says for Tomcat. Tomcat runs
 * its acceptor and poller outside its worker pool; Jetty runs its connector's acceptors and selectors in its pool, each
 * holding a thread for the server's life. So with [PROPERTY] = N the pool's maximum becomes N plus those threads, and N
 * blocking handlers run at once, as on Tomcat with `server.tomcat.threads.max=N` (docs/catalogue.md has the figures).
 * With virtual threads Boot gives Jetty a `VirtualThreadPool`, which bounds the tasks running at once
 * (`server.jetty.threads.max`, default 200): the acceptors hold a task each, while the selector's producing task hands
 * itself over to a new task and runs the request it found, so it holds no place of its own; the bound becomes N plus
 * the acceptors. Unset, Jetty keeps Boot's default (a pool of 200, the connector's threads among them).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(JettyThreads.PROPERTY)
class JettyThreads {
    @Bean
    fun jettyRequestThreads(env: Environment) = WebServerFactoryCustomizer<JettyServletWebServerFactory> { factory ->
        val requests = env.getRequiredProperty(PROPERTY, Int::class.java)
        require(requests >= 1) { "$PROPERTY must be >= 1, was $requests" }
        // A server customizer runs once the connectors exist, so their acceptor and selector counts are known.
        factory.addServerCustomizers(JettyServerCustomizer { server -> size(server, requests) })
    }

    companion object {
        const val PROPERTY = "serverbench.jetty.request-threads"

        /** Threads the connectors' acceptors hold for the server's life. */
        fun acceptorThreads(server: Server): Int = server.connectors.filterIsInstance<ServerConnector>()
            .sumOf { it.acceptors }

        /** Threads the connectors' selectors hold on a platform-thread pool. */
        fun selectorThreads(server: Server): Int = server.connectors.filterIsInstance<ServerConnector>()
            .sumOf { it.selectorManager.selectorCount }

        /** Sizes [server]'s pool so that [requests] requests run beside its connectors' threads. */
        fun size(server: Server, requests: Int) {
            when (val pool = server.threadPool) {
                is QueuedThreadPool -> {
                    val max = requests + acceptorThreads(server) + selectorThreads(server)
                    pool.minThreads = minOf(pool.minThreads, max)
                    pool.maxThreads = max
                }

                is VirtualThreadPool -> pool.maxConcurrentTasks = requests + acceptorThreads(server)

                else -> error("$PROPERTY: Jetty's pool is a ${pool.javaClass.name}, which it cannot size")
            }
        }
    }
}
