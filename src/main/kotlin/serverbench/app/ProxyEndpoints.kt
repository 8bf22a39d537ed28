package serverbench.app

import org.apache.hc.client5.http.async.methods.SimpleHttpResponse
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient
import org.apache.hc.core5.concurrent.FutureCallback
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import org.springframework.web.client.RestClient
import org.springframework.web.reactive.function.client.WebClient
import org.springframework.web.reactive.function.client.awaitBody
import org.springframework.web.server.ResponseStatusException
import reactor.core.publisher.Mono
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.util.concurrent.CompletableFuture

/**
 * The proxy family: each endpoint calls the downstream stub (`GET /delay?ms=`) with one of the HTTP clients users pick
 * and returns its body. Same code on both stacks; the blocking clients block the request thread (on Netty: the event
 * loop, unless `-p virtualThreads=true` moves blocking handlers to virtual threads).
 * - `jdkBlocking`: JDK `HttpClient.send` · `jdkAsync`: `sendAsync` → `CompletableFuture`
 * - `apacheAsync`: Apache HttpClient 5 async → `CompletableFuture`
 * - `restClient`: Spring `RestClient` (blocking, on the JDK client)
 * - `webClient`: `WebClient` → `Mono` · `webClientSuspend`: `WebClient` in a `suspend` handler (`awaitBody`)
 */
@RestController
@RequestMapping("/proxy", produces = [MediaType.TEXT_PLAIN_VALUE])
class ProxyEndpoints(
    private val downstream: Downstream,
    private val jdk: HttpClient,
    private val apache: CloseableHttpAsyncClient,
    private val rest: RestClient,
    private val web: WebClient,
) {
    @GetMapping("/jdkBlocking")
    fun jdkBlocking(@RequestParam("ms") ms: Long): String =
        checked(jdk.send(jdkRequest(ms), HttpResponse.BodyHandlers.ofString()))

    @GetMapping("/jdkAsync")
    fun jdkAsync(@RequestParam("ms") ms: Long): CompletableFuture<String> =
        jdk.sendAsync(jdkRequest(ms), HttpResponse.BodyHandlers.ofString()).thenApply {
            checked(it)
        }

    @GetMapping("/apacheAsync")
    fun apacheAsync(@RequestParam("ms") ms: Long): CompletableFuture<String> {
        val result = CompletableFuture<String>()
        apache.execute(
            SimpleRequestBuilder.get(uri(ms)).build(),
            object : FutureCallback<SimpleHttpResponse> {
                override fun completed(response: SimpleHttpResponse) {
                    if (response.code == 200) {
                        result.complete(response.bodyText)
                    } else {
                        result.completeExceptionally(downstreamFailed(response.code))
                    }
                }

                override fun failed(e: Exception) {
                    result.completeExceptionally(e)
                }

                override fun cancelled() {
                    result.cancel(false)
                }
            },
        )
        return result
    }

    @GetMapping("/restClient")
    fun restClient(@RequestParam("ms") ms: Long): String = rest.get().uri(uri(ms)).retrieve().body(String::class.java)!!

    @GetMapping("/webClient")
    fun webClient(@RequestParam("ms") ms: Long): Mono<String> =
        web.get().uri(uri(ms)).retrieve().bodyToMono(String::class.java)

    @GetMapping("/webClientSuspend")
    suspend fun webClientSuspend(@RequestParam("ms") ms: Long): String = web.get().uri(uri(ms)).retrieve().awaitBody()

    private fun uri(ms: Long): URI {
        val base =
            downstream.url
                ?: throw ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE, "no downstream stub configured")
        return URI.create("$base/delay?ms=$ms")
    }

    private fun jdkRequest(ms: Long): HttpRequest = HttpRequest.newBuilder(uri(ms)).GET().build()

    private fun checked(response: HttpResponse<String>): String =
        if (response.statusCode() == 200) response.body() else throw downstreamFailed(response.statusCode())

    private fun downstreamFailed(status: Int) =
        ResponseStatusException(HttpStatus.BAD_GATEWAY, "downstream answered $status")
}
