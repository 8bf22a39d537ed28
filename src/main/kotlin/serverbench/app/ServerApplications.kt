package serverbench.app

import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration
import org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration
import org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.context.annotation.Import
import org.springframework.core.env.Environment
import java.time.Duration

/*
 * One application class per stack, and no component scanning: each imports exactly the controllers it serves. With
 * both starters on the classpath, Spring would otherwise pick the servlet stack for everything, and a scan of this
 * package would load stack-specific controllers into the wrong server (a Thread.sleep on the Netty event loop, unseen).
 * The fixture also sets the web application type explicitly. Auto-configuration stays on, as in the users' own
 * @SpringBootApplication services: that is the stack they deploy. Tomcat and Jetty are both servlet containers: each
 * servlet app excludes the other's auto-configuration (with both, Boot would take whichever it ordered first), and
 * the WebFlux app excludes both of theirs, so the choice never rests on auto-configuration order.
 */

/** Spring MVC on Tomcat. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration(
    exclude = [JettyServletWebServerAutoConfiguration::class, JettyReactiveWebServerAutoConfiguration::class],
)
@Import(SharedEndpoints::class, MvcEndpoints::class)
class TomcatApp

/** Spring MVC on Jetty 12.1: the same controllers as [TomcatApp], in another servlet container. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration(
    exclude = [TomcatServletWebServerAutoConfiguration::class, TomcatReactiveWebServerAutoConfiguration::class],
)
@Import(SharedEndpoints::class, MvcEndpoints::class, JettyThreads::class)
class JettyApp

/** Spring WebFlux on Reactor Netty. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration(
    exclude = [JettyReactiveWebServerAutoConfiguration::class, TomcatReactiveWebServerAutoConfiguration::class],
)
@Import(
    SharedEndpoints::class,
    BlockingIoWebFlux::class,
    FaultWebFlux::class,
    JsonWebFlux::class,
    NettyIoWorkers::class,
    NettySslProvider::class,
    ServerProbeWebFlux::class,
)
class NettyApp

/** The Spring MVC controllers, the same on every servlet container. */
@Configuration(proxyBeanMethods = false)
@Import(BlockingIoMvc::class, FaultMvc::class, ServerProbeMvc::class)
class MvcEndpoints

/** Controllers whose code is the same on every stack, and what they use. */
@Configuration(proxyBeanMethods = false)
@Import(
    NoopEndpoints::class,
    CpuEndpoints::class,
    BlockingIoEndpoints::class,
    CompletableFutureEndpoints::class,
    ProxyEndpoints::class,
    ProxyClients::class,
    FaultEndpoints::class,
    DatabaseEndpoints::class,
    JsonEndpoints::class,
)
class SharedEndpoints {
    @Bean(destroyMethod = "close")
    fun workerPools(env: Environment) = WorkerPools(
        blockingSize = env.getProperty(
            WorkerPools.BLOCKING_SIZE_PROPERTY,
            Int::class.java,
            WorkerPools.defaultBlockingSize(),
        ),
    )

    @Bean(destroyMethod = "close")
    fun databaseClients(env: Environment) = DatabaseClients(
        url = env.getProperty(DatabaseClients.URL_PROPERTY),
        user = env.getProperty(DatabaseClients.USER_PROPERTY, "postgres"),
        password = env.getProperty(DatabaseClients.PASSWORD_PROPERTY, ""),
        poolSize = env.getProperty(DatabaseClients.POOL_PROPERTY, Int::class.java, DatabaseClients.DEFAULT_POOL),
        acquireTimeout = env.getProperty(DatabaseClients.ACQUIRE_TIMEOUT_PROPERTY, Long::class.java)
            ?.let { Duration.ofMillis(it) } ?: DatabaseClients.DEFAULT_ACQUIRE_TIMEOUT,
    )
}
