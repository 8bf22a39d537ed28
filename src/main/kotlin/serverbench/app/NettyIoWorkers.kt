package serverbench.app

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.env.Environment
import org.springframework.http.client.ReactorResourceFactory
import reactor.netty.resources.LoopResources
import java.time.Duration

/**
 * The `nettyIoWorkers` knob: Reactor Netty's event loop count (default max(cores, 4)). Boot has no property for it, so
 * when `serverbench.netty.io-workers` is set the Netty app gets its own loop resources of that size, used by the
 * server and by the proxy's WebClient ([ProxyClients.webClient] runs on this factory's loops).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(NettyIoWorkers.PROPERTY)
class NettyIoWorkers {
    @Bean
    fun reactorResourceFactory(env: Environment): ReactorResourceFactory {
        val workers = env.getRequiredProperty(PROPERTY, Int::class.java)
        require(workers >= 1) { "$PROPERTY must be >= 1, was $workers" }
        return ReactorResourceFactory().apply {
            isUseGlobalResources = false
            setLoopResourcesSupplier { LoopResources.create("reactor-http", workers, true) }
            setShutdownQuietPeriod(Duration.ZERO)
        }
    }

    companion object {
        const val PROPERTY = "serverbench.netty.io-workers"
    }
}
