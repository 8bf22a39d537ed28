package serverbench.app

import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono

/**
 * The JSON family's WebFlux idiom (see [JsonEndpoints] for the shared variants): the body as a `Mono<Order>`, mapped
 * to the answer. Spring MVC has no reactive request-body parameter, so this variant runs on reactive stacks only
 * (the launcher skips it on the others).
 */
@RestController
class JsonWebFlux {
    @PostMapping(
        "/json/mono",
        produces = [MediaType.APPLICATION_JSON_VALUE],
        consumes = [MediaType.APPLICATION_JSON_VALUE],
    )
    fun mono(@RequestBody order: Mono<Order>): Mono<OrderSummary> = order.map(::summarize)
}
