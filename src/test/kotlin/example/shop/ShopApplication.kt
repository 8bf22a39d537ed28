package example.shop

import org.springframework.beans.factory.annotation.Value
import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController

/**
 * A user's own servlet application as a team writes it: found by its component scan, configured by its own file
 * (`shop.properties`, src/test/resources), its web type left to the rule's default (servlet).
 */
@SpringBootApplication
class ShopApplication

@RestController
class ShopController(@param:Value("\${shop.greeting}") private val greeting: String) {
    @GetMapping("/shop/greeting")
    fun greeting(): String = greeting
}
