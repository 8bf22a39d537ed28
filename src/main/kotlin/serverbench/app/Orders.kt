package serverbench.app

import com.fasterxml.jackson.annotation.JsonPropertyOrder

/**
 * The JSON family's documents: an order as a shop's API receives it, and the summary the server answers with. Plain
 * Kotlin data classes, decoded and encoded by Jackson as Boot configures it (with jackson-module-kotlin on the
 * classpath). The property order is pinned so the answer's bytes do not depend on Jackson's default ordering, and the
 * client can check them exactly.
 */
data class Order(
    val id: String,
    val customer: Customer,
    val shippingAddress: Address,
    val currency: String,
    val items: List<LineItem>,
    val note: String? = null,
)

data class Customer(val id: String, val name: String, val email: String)

data class Address(val street: String, val city: String, val postcode: String, val country: String)

data class LineItem(val sku: String, val name: String, val quantity: Int, val unitPriceCents: Long)

/** The answer: per line, its total; for the order, its counts and total. Computed from every field a line has. */
@JsonPropertyOrder("orderId", "customerId", "currency", "lineCount", "units", "totalCents", "lines")
data class OrderSummary(
    val orderId: String,
    val customerId: String,
    val currency: String,
    val lineCount: Int,
    val units: Int,
    val totalCents: Long,
    val lines: List<LineTotal>,
)

@JsonPropertyOrder("sku", "quantity", "totalCents")
data class LineTotal(val sku: String, val quantity: Int, val totalCents: Long)

/** What every variant computes: the same answer for the same order, on whichever thread it runs. */
fun summarize(order: Order): OrderSummary {
    val lines = order.items.map { LineTotal(it.sku, it.quantity, it.quantity * it.unitPriceCents) }
    return OrderSummary(
        orderId = order.id,
        customerId = order.customer.id,
        currency = order.currency,
        lineCount = lines.size,
        units = order.items.sumOf { it.quantity },
        totalCents = lines.sumOf { it.totalCents },
        lines = lines,
    )
}
