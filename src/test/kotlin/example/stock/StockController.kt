package example.stock

import org.springframework.jdbc.core.simple.JdbcClient
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RestController

/** What a client sends to add an item. */
data class NewItem(val sku: String)

/** The stored item, with the id PostgreSQL generated. */
data class Item(val id: Long, val sku: String)

/**
 * A user's controller that stores what it is sent with Spring's JdbcClient: under `@EmbeddedPostgres` beside
 * `@ServerEndpoints` it needs a JdbcClient and its table (schema.sql) from the harness.
 */
@RestController
class StockController(private val jdbc: JdbcClient) {
    @PostMapping("/stock")
    fun add(@RequestBody item: NewItem): Item = jdbc.sql("insert into stock (sku) values (:sku) returning id")
        .param("sku", item.sku).query(Long::class.java).single().let { Item(it, item.sku) }
}
