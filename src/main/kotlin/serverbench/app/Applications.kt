package serverbench.app

import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.context.annotation.Import
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.ThreadFactory
import java.util.concurrent.atomic.AtomicInteger

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
@Import(SharedEndpoints::class)
class TomcatApp

/** Spring WebFlux on Reactor Netty. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(SharedEndpoints::class)
class NettyApp

/** Controllers whose code is the same on both stacks, and the pools they use. */
@Configuration(proxyBeanMethods = false)
@Import(NoopEndpoints::class, CpuEndpoints::class, FaultEndpoints::class)
class SharedEndpoints {
    @Bean(destroyMethod = "close")
    fun workerPools() = WorkerPools()
}

/** Thread pools owned by one application context and shut down with it, so a stopped server leaves no thread. */
class WorkerPools : AutoCloseable {
    /** The `CompletableFuture` CPU pool: one thread per core, as a typical service sizes it. */
    val cpu: ExecutorService = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), named("cpu-pool"))

    override fun close() {
        cpu.shutdownNow()
    }

    private fun named(prefix: String): ThreadFactory {
        val n = AtomicInteger()
        return ThreadFactory { r -> Thread(r, "$prefix-${n.incrementAndGet()}").apply { isDaemon = true } }
    }
}
