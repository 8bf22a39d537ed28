package serverbench.app

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RestController

/**
 * The JSON family: a POSTed [Order] decoded into a data class, answered with its [OrderSummary], both by Jackson as
 * Boot configures it. Same code on both stacks except `mono` ([JsonWebFlux]); what differs is the stack's codec path:
 * MVC reads the body from the servlet's blocking stream on the Tomcat thread, WebFlux decodes it from DataBuffers on
 * the event loop. Where the handler runs:
 * - `direct`: `@RequestBody order: Order` on the request thread (a Tomcat worker; the event loop once WebFlux has
 *   decoded the body).
 * - `suspendFun`: the same as a `suspend` handler; Spring starts it undispatched, so still the request thread.
 * - `withContextIO`: a `suspend` handler that makes a blocking call ([BLOCKING_MS], standing in for a repository's
 *   save) offloaded with `withContext(Dispatchers.IO)`, then answers from there.
 */
@RestController
@RequestMapping("/json", produces = [MediaType.APPLICATION_JSON_VALUE], consumes = [MediaType.APPLICATION_JSON_VALUE])
class JsonEndpoints {

    @PostMapping("/direct")
    fun direct(@RequestBody order: Order): OrderSummary = summarize(order)

    @PostMapping("/suspendFun")
    suspend fun suspendFun(@RequestBody order: Order): OrderSummary = summarize(order)

    @PostMapping("/withContextIO")
    suspend fun withContextIO(@RequestBody order: Order): OrderSummary = withContext(Dispatchers.IO) {
        Thread.sleep(BLOCKING_MS)
        summarize(order)
    }

    companion object {
        /** The blocking call `withContextIO` offloads: short, so the family stays about decoding and encoding. */
        const val BLOCKING_MS = 1L
    }
}
