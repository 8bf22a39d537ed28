package serverbench.app

import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono

/** Blocking-IO, WebFlux idiom: a `Mono` completed by a worker of the fixed pool; the event loop is free meanwhile. */
@RestController
class BlockingIoWebFlux(private val pools: WorkerPools) {
    @GetMapping("/blocking/workerCompleted", produces = [MediaType.TEXT_PLAIN_VALUE])
    fun workerCompleted(@RequestParam("ms") ms: Long): Mono<String> = Mono.create { sink ->
        pools.blocking.execute {
            // Interrupted only when the server stops (the pool is shut down): end the request, print nothing.
            try {
                sink.success(BlockingIoEndpoints.work(ms))
            } catch (e: InterruptedException) {
                sink.error(e)
            }
        }
    }
}
