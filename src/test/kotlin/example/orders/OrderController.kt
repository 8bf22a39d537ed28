package example.orders

import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RestController

/**
 * The example of docs/your-own-benchmark.md: a user's controller, in the user's own package. Annotated controllers run
 * unchanged on Spring MVC (Tomcat, Jetty) and WebFlux (Netty).
 */
@RestController
class OrderController {
    @GetMapping("/orders/{id}", produces = [MediaType.APPLICATION_JSON_VALUE])
    fun order(@PathVariable id: Long): String = """{"id":$id,"status":"open"}"""
}
