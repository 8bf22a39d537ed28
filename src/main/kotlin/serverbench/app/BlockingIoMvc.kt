package serverbench.app

import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import org.springframework.web.context.request.async.DeferredResult

/**
 * Blocking-IO, Spring MVC idiom: a `DeferredResult` completed by a worker of the fixed pool; the Tomcat thread is free
 * meanwhile.
 */
@RestController
class BlockingIoMvc(private val pools: WorkerPools) {
    @GetMapping("/blocking/workerCompleted", produces = [MediaType.TEXT_PLAIN_VALUE])
    fun workerCompleted(@RequestParam("ms") ms: Long): DeferredResult<String> {
        val result = DeferredResult<String>()
        pools.blocking.execute {
            // Interrupted only when the server stops (the pool is shut down): end the request, print nothing.
            try {
                result.setResult(BlockingIoEndpoints.work(ms))
            } catch (e: InterruptedException) {
                result.setErrorResult(e)
            }
        }
        return result
    }
}
