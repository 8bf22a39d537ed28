package serverbench.app

import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
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
 * @SpringBootApplication services: that is the stack they deploy.
 */

/** Spring MVC on Tomcat. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(SharedEndpoints::class, BlockingIoMvc::class, FaultMvc::class, ServerProbeMvc::class)
class TomcatApp

/** Spring WebFlux on Reactor Netty. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(
    SharedEndpoints::class,
    BlockingIoWebFlux::class,
    FaultWebFlux::class,
    NettyIoWorkers::class,
    NettySslProvider::class,
    ServerProbeWebFlux::class,
)
class NettyApp

/** Controllers whose code is the same on both stacks, and what they use. */
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
