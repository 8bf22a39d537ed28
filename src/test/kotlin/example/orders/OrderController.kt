package example.orders

import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.PutMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RestController
import java.time.Instant
import java.util.UUID

/** What a client sends to store an order. */
data class OrderUpdate(val sku: String, val quantity: Int)

/** The stored order, with what the server generates: a revision id and the time it was stored. */
data class OrderSaved(val id: Long, val sku: String, val quantity: Int, val revision: String, val updatedAt: String)

/**
 * The example of docs/your-own-benchmark.md: a user's controller, in the user's own package. Annotated controllers run
 * unchanged on Spring MVC (Tomcat, Jetty) and WebFlux (Netty).
 */
@RestController
class OrderController {
    @PutMapping("/orders/{id}", produces = [MediaType.APPLICATION_JSON_VALUE])
    fun put(@PathVariable id: Long, @RequestBody order: OrderUpdate) =
        OrderSaved(id, order.sku, order.quantity, UUID.randomUUID().toString(), Instant.now().toString())
}
