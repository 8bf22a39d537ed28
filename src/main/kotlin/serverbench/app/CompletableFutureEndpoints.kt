package serverbench.app

import org.springframework.beans.factory.annotation.Qualifier
import org.springframework.core.task.AsyncTaskExecutor
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import java.util.concurrent.CompletableFuture

/**
 * The `CompletableFuture` family: the "expensive worker" of a typical Spring service (a slow blocking call of `ms`),
 * called synchronously or offloaded the ways tutorials show, each returned as a `CompletableFuture`:
 * - `sync`: on the request thread.
 * - `applicationTaskExecutor`: on Spring Boot's auto-configured executor (what `@Async` uses): 8 threads and an
 *   unbounded queue by default; with `-p virtualThreads=true`, a virtual thread per task.
 * - `commonPool`: `supplyAsync` without an executor: the ForkJoin common pool (cores - 1 threads, at least 1).
 * - `fixedPool`: the fixed pool of `-p poolSize` threads.
 */
@RestController
@RequestMapping("/cf", produces = [MediaType.TEXT_PLAIN_VALUE])
class CompletableFutureEndpoints(
    private val pools: WorkerPools,
    @Qualifier("applicationTaskExecutor") private val applicationTaskExecutor: AsyncTaskExecutor,
) {
    @GetMapping("/sync")
    fun sync(@RequestParam("ms") ms: Long): String = BlockingIoEndpoints.work(ms)

    @GetMapping("/applicationTaskExecutor")
    fun applicationTaskExecutor(@RequestParam("ms") ms: Long): CompletableFuture<String> =
        CompletableFuture.supplyAsync({
            BlockingIoEndpoints.work(ms)
        }, applicationTaskExecutor)

    @GetMapping("/commonPool")
    fun commonPool(@RequestParam("ms") ms: Long): CompletableFuture<String> =
        CompletableFuture.supplyAsync { BlockingIoEndpoints.work(ms) }

    @GetMapping("/fixedPool")
    fun fixedPool(@RequestParam("ms") ms: Long): CompletableFuture<String> =
        CompletableFuture.supplyAsync({ BlockingIoEndpoints.work(ms) }, pools.blocking)
}
