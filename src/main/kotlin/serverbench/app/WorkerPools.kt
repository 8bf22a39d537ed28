package serverbench.app

import reactor.core.scheduler.Scheduler
import reactor.core.scheduler.Schedulers
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/**
 * Thread pools owned by one application context and shut down with it, so a stopped server leaves no thread. Threads
 * are created on first use only.
 */
class WorkerPools(val blockingSize: Int) : AutoCloseable {
    init {
        require(blockingSize >= 1) { "the blocking pool needs at least 1 thread, was $blockingSize" }
    }

    /** The `CompletableFuture` CPU pool: one thread per core, as a typical service sizes it. */
    val cpu: ExecutorService = Executors.newFixedThreadPool(
        Runtime.getRuntime().availableProcessors(),
        named("cpu-pool"),
    )

    /** The fixed pool blocking work is offloaded to (`-p poolSize`, default 2 × cores). */
    val blocking: ExecutorService = Executors.newFixedThreadPool(blockingSize, named("blocking-pool"))

    /** An unbounded cached pool: a thread per concurrent blocking call. */
    val cached: ExecutorService = Executors.newCachedThreadPool(named("cached-pool"))

    /** A large fixed pool for Reactor, so `subscribeOn` is not capped by boundedElastic's 10 × cores threads. */
    val large: ExecutorService = Executors.newFixedThreadPool(LARGE_POOL_SIZE, named("large-pool"))
    val largeScheduler: Scheduler = Schedulers.fromExecutorService(large, "large-pool")

    /** A thread per task on virtual threads; null before JDK 21 (bytecode targets 17, so it is looked up). */
    val virtual: ExecutorService? = runCatching {
        Executors::class.java.getMethod("newVirtualThreadPerTaskExecutor").invoke(null) as ExecutorService
    }.getOrNull()

    override fun close() {
        largeScheduler.dispose()
        val pools = listOfNotNull(cpu, blocking, cached, large, virtual)
        for (pool in pools) pool.shutdownNow()
        // Wait for the interrupted threads to end, so a closed server has left no thread behind (a fork's next server,
        // or a test's thread census, would otherwise still see them for a moment).
        for (pool in pools) pool.awaitTermination(5, TimeUnit.SECONDS)
    }

    private fun named(prefix: String): ThreadFactory {
        val n = AtomicInteger()
        return ThreadFactory { r -> Thread(r, "$prefix-${n.incrementAndGet()}").apply { isDaemon = true } }
    }

    companion object {
        const val BLOCKING_SIZE_PROPERTY = "serverbench.pool.blocking-size"
        const val LARGE_POOL_SIZE = 1000

        fun defaultBlockingSize() = 2 * Runtime.getRuntime().availableProcessors()
    }
}
