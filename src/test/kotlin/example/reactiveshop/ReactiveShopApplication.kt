package example.reactiveshop

import org.springframework.beans.factory.annotation.Value
import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono

/** A user's own WebFlux application: `spring.main.web-application-type=reactive` in its reactiveshop.properties. */
@SpringBootApplication
class ReactiveShopApplication

@RestController
class ReactiveShopController(@param:Value("\${shop.greeting}") private val greeting: String) {
    @GetMapping("/shop/greeting")
    fun greeting(): Mono<String> = Mono.just(greeting)
}
