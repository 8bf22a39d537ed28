package serverbench.workload

import org.junit.jupiter.api.Test
import serverbench.client.Method
import serverbench.workload.HttpFiles.verdict
import java.io.File
import kotlin.test.assertEquals
import kotlin.test.assertNull

/** The example of docs/http-files.md parses to what the page says it is, and accepts what its server would answer. */
class HttpFilesDocTest {
    private val example = File("docs/http-files.md").readText().substringAfter("```http\n").substringBefore("```")

    @Test
    fun `the documented example is three requests, sent 8 to 2 to 1, with their checks`() {
        val w = HttpFiles.parse(example)
        assertEquals(listOf("List orders", "create-order", "Fetch one"), w.requests.map { it.name })
        assertEquals(listOf(8, 2, 1), w.requests.map { it.weight })
        val (list, create, one) = w.requests.map { it.request }
        assertEquals("/api/orders?limit=20", list.path)
        assertEquals(mapOf("Accept" to "application/json", "X-Tenant" to "acme"), list.headers)
        assertNull(verdict(list, """{"items":[]}"""))
        assertEquals("invalid body: /items: missing, expected an array; body \"{}\" (2 bytes)", verdict(list, "{}"))

        assertEquals(Method.POST, create.method)
        assertEquals("/api/orders", create.path)
        assertEquals(
            "{\n  \"ref\": \"{{uuid}}\",\n  \"line\": {{seq}},\n  \"sku\": \"A-1\",\n  \"quantity\": 1\n}",
            create.bodyTemplate,
        )
        val created = """{"id":12,"sku":"A-1","createdAt":"2026-11-28T08:30:00Z"}"""
        assertNull(verdict(create, created, status = 201))
        assertEquals("unexpected status: HTTP 200, expected 201", verdict(create, created, status = 200))

        assertEquals("/api/orders/1", one.path)
        assertNull(verdict(one, "anything", type = "text/plain"))
    }
}
