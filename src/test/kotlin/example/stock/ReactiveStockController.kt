package example.stock

import org.springframework.r2dbc.core.DatabaseClient
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono

/** [StockController] for WebFlux: the same table through Spring's R2DBC `DatabaseClient`, never blocking. */
@RestController
class ReactiveStockController(private val db: DatabaseClient) {
    @PostMapping("/reactive-stock")
    fun add(@RequestBody item: NewItem): Mono<Item> = db.sql("insert into stock (sku) values (:sku) returning id")
        .bind("sku", item.sku).map { row -> row.get("id", Long::class.javaObjectType)!! }.one()
        .map { Item(it, item.sku) }
}
