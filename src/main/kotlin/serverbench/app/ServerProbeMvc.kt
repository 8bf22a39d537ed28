package serverbench.app

import jakarta.servlet.AsyncEvent
import jakarta.servlet.AsyncListener
import jakarta.servlet.FilterChain
import jakarta.servlet.http.HttpServletRequest
import jakarta.servlet.http.HttpServletResponse
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.Ordered
import org.springframework.web.filter.OncePerRequestFilter
import java.util.concurrent.TimeUnit

/** [ServerProbe] on the servlet stack: a filter ahead of every other, counting a request until its response completes. */
@Configuration(proxyBeanMethods = false)
class ServerProbeMvc {
    @Bean
    fun serverProbeFilter() = ServerProbeFilter()

    /**
     * Runs once per request (not again on the async dispatch that writes a `CompletableFuture`'s or coroutine's result);
     * an async request leaves the count when its async cycle completes, not when this filter returns.
     */
    class ServerProbeFilter : OncePerRequestFilter(), Ordered {
        override fun getOrder() = Ordered.HIGHEST_PRECEDENCE

        override fun doFilterInternal(request: HttpServletRequest, response: HttpServletResponse, chain: FilterChain) {
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
