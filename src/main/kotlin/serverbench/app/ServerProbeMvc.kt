package serverbench.app

import jakarta.servlet.AsyncEvent
import jakarta.servlet.AsyncListener
import jakarta.servlet.DispatcherType
import jakarta.servlet.Filter
import jakarta.servlet.FilterChain
import jakarta.servlet.ServletRequest
import jakarta.servlet.ServletResponse
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import java.util.concurrent.TimeUnit

/**
 * [ServerProbe] on the servlet stack: a filter ahead of every other, counting a request until its response completes.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(ServerProbe.PROPERTY)
class ServerProbeMvc {
    @Bean
    fun serverProbeFilter() = ServerProbeFilter()

    /**
     * Runs once per request: a plain filter, which Spring Boot registers for the REQUEST dispatch only (not the async
     * dispatch that writes a `CompletableFuture`'s or coroutine's result), without OncePerRequestFilter's request
     * attribute bookkeeping on every request. An async request leaves the count when its async cycle completes, not
     * when this filter returns.
     */
    class ServerProbeFilter :
        ProbeFilter(),
        Filter {

        override fun doFilter(request: ServletRequest, response: ServletResponse, chain: FilterChain) {
            if (request.dispatcherType != DispatcherType.REQUEST) return chain.doFilter(request, response)
            ServerProbe.enter()
            var async = false
            try {
                val stall = ServerProbe.stallRemainingNanos()
                // A frozen server holds its thread too: sleep, as a GC pause would.
                if (stall > 0) Thread.sleep(TimeUnit.NANOSECONDS.toMillis(stall) + 1)
                chain.doFilter(request, response)
                if (request.isAsyncStarted) {
                    request.asyncContext.addListener(Exit)
                    async = true
                }
            } finally {
                if (!async) ServerProbe.exit()
            }
        }
    }

    /** onComplete follows a timeout or an error too, so the request leaves the count exactly once. */
    private object Exit : AsyncListener {
        override fun onComplete(event: AsyncEvent) = ServerProbe.exit()
        override fun onTimeout(event: AsyncEvent) {}
        override fun onError(event: AsyncEvent) {}
        override fun onStartAsync(event: AsyncEvent) {}
    }
}
