package serverbench.benchmarks

import serverbench.app.Address
import serverbench.app.Customer
import serverbench.app.LineItem
import serverbench.app.Order
import serverbench.app.OrderSummary
import serverbench.app.summarize
import serverbench.client.Request
import serverbench.params.ParamValues
import java.nio.charset.StandardCharsets

/**
 * The JSON family's request and the answer it must get, as bytes: an [Order] of about `bodyBytes` (line items added
 * while the body stays within it), and its [OrderSummary] exactly as Jackson writes it under Boot's defaults (compact,
 * properties in the pinned order). Both are written by hand here, not by Jackson, so the server's codec is checked
 * against an independent encoding: a decoding or encoding slip is an `invalid body`, as is any other answer.
 */
object OrderJson {
    /** An order's fixed part (customer, address, note) and a line item or two. */
    const val MIN_BYTES = ParamValues.MIN_BODY_BYTES

    /** WebFlux's Jackson decoder buffers at most 256 KiB of a body by default (`spring.codec.max-in-memory-size`). */
    const val MAX_BYTES = ParamValues.MAX_BODY_BYTES

    private val PRODUCTS = listOf(
        "Stainless steel water bottle, 750 ml",
        "Organic cotton T-shirt, navy, size M",
        "Wireless mouse with USB-C receiver",
        "Notebook, A5, dotted, 120 pages",
        "Ceramic coffee mug, 350 ml, matte white",
        "Bike light set, rechargeable",
    )

    /** The order whose body is the largest within [bodyBytes] (at least one line item). */
    fun order(bodyBytes: Int): Order {
        require(bodyBytes in MIN_BYTES..MAX_BYTES) { "bodyBytes must be from $MIN_BYTES to $MAX_BYTES, was $bodyBytes" }
        val items = ArrayList<LineItem>()
        var size = encode(orderWith(items)).size
        while (true) {
            val item = item(items.size)
            // Each item adds its own bytes and, after the first, a comma.
            val added = encode(item).size + if (items.isEmpty()) 0 else 1
            if (items.isNotEmpty() && size + added > bodyBytes) break
            items += item
            size += added
        }
        return orderWith(items)
    }

    private fun orderWith(items: List<LineItem>) = Order(
        id = "ord-2026-000123",
        customer = Customer("cus-4711", "Zoë Müller", "zoe.mueller@example.com"),
        shippingAddress = Address("Hauptstraße 12", "Berlin", "10115", "DE"),
        currency = "EUR",
        items = items,
        note = "Leave the parcel with the neighbour if nobody answers.",
    )

    private fun item(i: Int) = LineItem(
        sku = "SKU-%06d".format(i + 1),
        name = PRODUCTS[i % PRODUCTS.size],
        quantity = 1 + i % 5,
        unitPriceCents = 199L + (i * 7919L) % 20_000,
    )

    /** The family's request to [path]: the order as a POST body, its summary as the only valid answer. */
    fun request(path: String, bodyBytes: Int): Request {
        val order = order(bodyBytes)
        return Request(
            path,
            String(encode(summarize(order)), StandardCharsets.UTF_8),
            body = encode(order),
            expectedContentType = Request.JSON,
        )
    }

    fun encode(order: Order): ByteArray = json {
        append("{\"id\":").str(order.id)
        append(",\"customer\":{\"id\":").str(order.customer.id).append(",\"name\":").str(order.customer.name)
        append(",\"email\":").str(order.customer.email).append('}')
        val a = order.shippingAddress
        append(",\"shippingAddress\":{\"street\":").str(a.street).append(",\"city\":").str(a.city)
        append(",\"postcode\":").str(a.postcode).append(",\"country\":").str(a.country).append('}')
        append(",\"currency\":").str(order.currency).append(",\"items\":[")
        order.items.forEachIndexed { i, item -> (if (i > 0) append(',') else this).item(item) }
        append(']')
        order.note?.let { append(",\"note\":").str(it) }
        append('}')
    }

    private fun encode(item: LineItem): ByteArray = json { item(item) }

    private fun StringBuilder.item(item: LineItem): StringBuilder {
        append("{\"sku\":").str(item.sku).append(",\"name\":").str(item.name)
        return append(",\"quantity\":").append(item.quantity).append(",\"unitPriceCents\":").append(item.unitPriceCents)
            .append('}')
    }

    /** As Jackson writes an [OrderSummary] under Boot's defaults: compact, in its `@JsonPropertyOrder`. */
    fun encode(summary: OrderSummary): ByteArray = json {
        append("{\"orderId\":").str(summary.orderId).append(",\"customerId\":").str(summary.customerId)
        append(",\"currency\":").str(summary.currency).append(",\"lineCount\":").append(summary.lineCount)
        append(",\"units\":").append(summary.units).append(",\"totalCents\":").append(summary.totalCents)
        append(",\"lines\":[")
        summary.lines.forEachIndexed { i, line ->
            if (i > 0) append(',')
            append("{\"sku\":").str(line.sku).append(",\"quantity\":").append(line.quantity)
            append(",\"totalCents\":").append(line.totalCents).append('}')
        }
        append("]}")
    }

    private fun json(write: StringBuilder.() -> Unit): ByteArray =
        StringBuilder().apply(write).toString().toByteArray(StandardCharsets.UTF_8)

    /** A JSON string; the documents here hold no character that needs more than these escapes. */
    private fun StringBuilder.str(s: String): StringBuilder {
        append('"')
        for (c in s) {
            when {
                c == '"' || c == '\\' -> append('\\').append(c)
                c < ' ' -> append("\\u%04x".format(c.code))
                else -> append(c)
            }
        }
        return append('"')
    }
}
