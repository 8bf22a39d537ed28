package serverbench.app

import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient
import org.apache.hc.client5.http.impl.async.HttpAsyncClients
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder
import org.springframework.beans.factory.ObjectProvider
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.env.Environment
import org.springframework.http.client.JdkClientHttpRequestFactory
import org.springframework.http.client.ReactorResourceFactory
import org.springframework.http.client.reactive.ReactorClientHttpConnector
import org.springframework.web.client.RestClient
import org.springframework.web.reactive.function.client.WebClient
import reactor.netty.resources.ConnectionProvider
import java.net.http.HttpClient
import java.time.Duration

/**
 * The proxy family's HTTP clients, one bean each, sized so that none caps the proxy below the benchmark's concurrency
 * by a hidden default:
 * - JDK `HttpClient` (HTTP/1.1; its connection pool is unbounded by default) — also behind Spring's `RestClient`.
 * - Apache HttpClient 5 async: pool raised from 25 total / 5 per route to [POOL_SIZE] / [POOL_SIZE].
 * - `WebClient` on Reactor Netty: pool raised from max(2 × cores, 16) connections with a pending-acquire queue of twice
 *   that (which fails requests beyond it) to [POOL_SIZE] connections and an unbounded queue. Event loops are the
 *   app's [ReactorResourceFactory]'s when it has one (the WebFlux app: Reactor Netty's shared loops, as in a default
 *   Boot service, or `nettyIoWorkers`' own), else Reactor Netty's shared ones.
 */
@Configuration(proxyBeanMethods = false)
class ProxyClients {
    @Bean
    fun downstream(env: Environment) = Downstream(env.getProperty(Downstream.URL_PROPERTY))

    @Bean(destroyMethod = "")
    fun jdkHttpClient(): HttpClient =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build()

    /** JDK 21+ can close the JDK client (and its selector thread); on 17 it goes away with the context's garbage. */
    @Bean(destroyMethod = "close")
    fun jdkHttpClientCloser(client: HttpClient) = AutoCloseable { (client as? AutoCloseable)?.close() }

    @Bean(destroyMethod = "close")
    fun apacheAsyncClient(): CloseableHttpAsyncClient {
        val pool = PoolingAsyncClientConnectionManagerBuilder.create().setMaxConnTotal(
            POOL_SIZE,
        ).setMaxConnPerRoute(POOL_SIZE).build()
        return HttpAsyncClients.custom().setConnectionManager(pool).build().also { it.start() }
    }

    @Bean
    fun restClient(jdk: HttpClient): RestClient =
        RestClient.builder().requestFactory(JdkClientHttpRequestFactory(jdk)).build()

    @Bean(destroyMethod = "dispose")
    fun proxyConnectionProvider(): ConnectionProvider =
        ConnectionProvider.builder("proxy").maxConnections(POOL_SIZE).pendingAcquireMaxCount(-1).build()

    /**
     * On the server's loops: `HttpClient.create` alone runs on Reactor Netty's global loops, which `nettyIoWorkers`
     * does not size, so a 1-loop server would proxy through max(cores, 4) more. Our own [ConnectionProvider], not the
     * factory's, keeps the pool sized as above. The Tomcat app has no factory: the global loops, as before.
     */
    @Bean
    fun webClient(connections: ConnectionProvider, resources: ObjectProvider<ReactorResourceFactory>): WebClient {
        val client = reactor.netty.http.client.HttpClient.create(connections)
        val loops = resources.ifAvailable?.loopResources
        return WebClient.builder()
            .clientConnector(ReactorClientHttpConnector(if (loops != null) client.runOn(loops) else client))
            .build()
    }

    companion object {
        const val POOL_SIZE = 4096
    }
}
