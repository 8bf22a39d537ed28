package serverbench.app

import org.springframework.core.io.buffer.DataBuffer
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController
import org.springframework.web.server.ServerWebExchange
import reactor.core.publisher.Flux
import reactor.core.publisher.Mono
import java.time.Duration

/** Faults only the reactive API can produce this way (see [FaultEndpoints] for the shared ones). */
@RestController
class FaultWebFlux {
    /**
     * Promises [FaultEndpoints.TRUNCATED_LENGTH] bytes, sends two, then errors: the headers are out, so Reactor Netty
     * can only close the connection. The client sees a connection closed mid-response.
     */
    @GetMapping("/fault/truncated")
    fun truncated(exchange: ServerWebExchange): Mono<Void> {
        val response = exchange.response
        response.headers.contentType = MediaType.TEXT_PLAIN
        response.headers.contentLength = FaultEndpoints.TRUNCATED_LENGTH.toLong()
        val part = Mono.fromCallable { response.bufferFactory().wrap(FaultEndpoints.OK.toByteArray()) }
        val fail = Mono.delay(Duration.ofMillis(5))
            .then(Mono.error<DataBuffer>(IllegalStateException(FaultEndpoints.TRUNCATED_MESSAGE)))
        return response.writeAndFlushWith(Flux.just(part, fail))
    }
}
