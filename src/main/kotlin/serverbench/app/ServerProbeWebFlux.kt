package serverbench.app

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.web.server.ServerWebExchange
import org.springframework.web.server.WebFilter
import org.springframework.web.server.WebFilterChain
import reactor.core.publisher.Mono
import java.time.Duration
import java.util.concurrent.atomic.AtomicBoolean

/**
 * [ServerProbe] on WebFlux: a web filter ahead of every other; the request leaves the count when its response is
 * written.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(ServerProbe.PROPERTY)
class ServerProbeWebFlux {
    @Bean
    fun serverProbeWebFilter() = ServerProbeWebFilter()

    class ServerProbeWebFilter :
        ProbeFilter(),
        WebFilter {

        // No Mono.defer: the chain already calls each filter per request, at subscription.
        override fun filter(exchange: ServerWebExchange, chain: WebFilterChain): Mono<Void> {
            ServerProbe.enter()
            // Leave the count as the response is committed: the client may have the response (and have sent its next
            // request) before this filter's Mono completes, so counting until then would overlap two requests of one
            // connection. doFinally covers a request that never commits (cancelled, connection lost).
            val exited = AtomicBoolean()
            val exit = { if (exited.compareAndSet(false, true)) ServerProbe.exit() }
            exchange.response.beforeCommit { Mono.fromRunnable<Void>(exit) }
            val stall = ServerProbe.stallRemainingNanos()
            // Held without blocking the event loop, so a stall of one request does not also stall its neighbours'.
            val handled = if (stall > 0) {
                Mono.delay(Duration.ofNanos(stall)).then(Mono.defer { chain.filter(exchange) })
            } else {
                chain.filter(exchange)
            }
            return handled.doFinally { exit() }
        }
    }
}
