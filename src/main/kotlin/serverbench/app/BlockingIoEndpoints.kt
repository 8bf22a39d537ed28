package serverbench.app

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import reactor.core.scheduler.Schedulers
import java.util.concurrent.CompletableFuture

/**
 * The blocking-IO family: a handler that waits `ms` the way real code waits for a slow call (`Thread.sleep` stands in
 * for a blocking driver), handed to the stack in each of the ways users write it. Same code on both stacks, except
 * `workerCompleted` (stack idioms: [BlockingIoMvc], [BlockingIoWebFlux]). Where the wait happens:
 * - `direct`: on the request thread: a Tomcat worker (200 max), or a Netty event loop, which then serves nobody else.
 * - `suspendBlocking`: a `suspend` handler that blocks: still the request thread (Spring starts it undispatched).
 * - `withContextIO`: `withContext(Dispatchers.IO)`: the coroutine IO pool (64 threads).
 * - `cfFixed` / `cfCached` / `cfVirtual`: `CompletableFuture.supplyAsync` on the fixed pool (`-p poolSize`), an
 *   unbounded cached pool, or a virtual thread per call (JDK 21+).
 * - `boundedElastic`: `Mono.fromCallable(...).subscribeOn(Schedulers.boundedElastic())` (10 × cores threads).
 * - `largePool`: the same on a 1000-thread pool.
 * - `nonBlocking`: waits without a thread on Reactor's timer ([waitWithoutThread]), the lower bound for all of the
 *   above.
 */
@RestController
@RequestMapping("/blocking", produces = [MediaType.TEXT_PLAIN_VALUE])
class BlockingIoEndpoints(private val pools: WorkerPools) {

    @GetMapping("/direct")
    fun direct(@RequestParam("ms") ms: Long): String = work(ms)

    @GetMapping("/suspendBlocking")
    suspend fun suspendBlocking(@RequestParam("ms") ms: Long): String = work(ms)

    @GetMapping("/withContextIO")
    suspend fun withContextIO(@RequestParam("ms") ms: Long): String = withContext(Dispatchers.IO) { work(ms) }

    @GetMapping("/cfFixed")
    fun cfFixed(@RequestParam("ms") ms: Long): CompletableFuture<String> =
        CompletableFuture.supplyAsync({ work(ms) }, pools.blocking)

    @GetMapping("/cfCached")
    fun cfCached(@RequestParam("ms") ms: Long): CompletableFuture<String> =
        CompletableFuture.supplyAsync({ work(ms) }, pools.cached)

    @GetMapping("/cfVirtual")
    fun cfVirtual(@RequestParam("ms") ms: Long): CompletableFuture<String> {
        val virtual = pools.virtual ?: throw IllegalStateException(NO_VIRTUAL_THREADS)
        return CompletableFuture.supplyAsync({ work(ms) }, virtual)
    }

    @GetMapping("/boundedElastic")
    fun boundedElastic(@RequestParam("ms") ms: Long): Mono<String> =
        Mono.fromCallable { work(ms) }.subscribeOn(Schedulers.boundedElastic())

    @GetMapping("/largePool")
    fun largePool(@RequestParam("ms") ms: Long): Mono<String> =
        Mono.fromCallable { work(ms) }.subscribeOn(pools.largeScheduler)

    @GetMapping("/nonBlocking")
    suspend fun nonBlocking(@RequestParam("ms") ms: Long): String {
        waitWithoutThread(ms)
        return DONE
    }

    companion object {
        const val DONE = "done"

        /** Why /blocking/cfVirtual answers 500 before JDK 21; the server logs it (tests expect it). */
        const val NO_VIRTUAL_THREADS = "virtual threads need JDK 21+"

        /** The blocking call every variant makes: the thread that runs it is held for `ms`. */
        fun work(ms: Long): String {
            Thread.sleep(ms)
            return DONE
        }
    }
}
