package serverbench.app

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import reactor.core.scheduler.Schedulers
import java.util.concurrent.CompletableFuture

/**
 * The CPU family: the same [sumPrimes] work, handed to the stack in each of the ways users write it. One controller
 * serves both stacks on purpose: the handler code is identical, so any difference in the results is the stack's.
 *
 * Where the work runs (MVC = Tomcat worker thread, WebFlux = Netty event loop):
 * - `direct`: on the request thread.
 * - `suspendFun`: a `suspend` handler; Spring starts it undispatched, so it still runs on the request thread.
 * - `withContextDefault`: `suspend` + `withContext(Dispatchers.Default)`: on the coroutine worker pool.
 * - `completableFuture`: `CompletableFuture.supplyAsync` on a fixed pool of `availableProcessors()` threads.
 * - `monoParallel`: `Mono.fromCallable(...).subscribeOn(Schedulers.parallel())`.
 * - `cooperative`: a `suspend` handler calling `yield()` every `batchSize` numbers. Spring runs suspend handlers on
 *   `Dispatchers.Unconfined`, where `yield()` only suspends if other unconfined coroutines are queued on this thread;
 *   the benchmark measures what this idiom really does, not what it is hoped to do.
 */
@RestController
@RequestMapping("/cpu", produces = [MediaType.TEXT_PLAIN_VALUE])
class CpuEndpoints(private val pools: WorkerPools) {

    @GetMapping("/direct")
    fun direct(@RequestParam("limit") limit: Int): String = sumPrimes(limit).toString()

    @GetMapping("/suspendFun")
    suspend fun suspendFun(@RequestParam("limit") limit: Int): String = sumPrimes(limit).toString()

    @GetMapping("/withContextDefault")
    suspend fun withContextDefault(@RequestParam("limit") limit: Int): String =
        withContext(Dispatchers.Default) { sumPrimes(limit).toString() }

    @GetMapping("/completableFuture")
    fun completableFuture(@RequestParam("limit") limit: Int): CompletableFuture<String> =
        CompletableFuture.supplyAsync({ sumPrimes(limit).toString() }, pools.cpu)

    @GetMapping("/monoParallel")
    fun monoParallel(@RequestParam("limit") limit: Int): Mono<String> =
        Mono.fromCallable { sumPrimes(limit).toString() }.subscribeOn(Schedulers.parallel())

    @GetMapping("/cooperative")
    suspend fun cooperative(@RequestParam("limit") limit: Int, @RequestParam("batchSize") batchSize: Int): String =
        sumPrimes(limit, batchSize) { yield() }.toString()
}
