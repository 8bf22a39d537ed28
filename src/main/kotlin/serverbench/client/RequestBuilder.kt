package serverbench.client

import java.nio.charset.StandardCharsets

/**
 * Builds a [Request] step by step, for Java:
 * `Request.builder(Method.PUT, "/orders/{{seq}}").header("X-Tenant", "a").bodyTemplate("{\"id\":{{seq}}}")
 * .expect(Expect.status(200).json("/id", Expect.integer())).build()`. Kotlin reads as well with the constructor's
 * named arguments. Each setter names the constructor parameter it sets, whose KDoc says what it means; [build] checks
 * them all, as the constructor does.
 */
class RequestBuilder internal constructor(private val method: Method, private val path: String) {
    private var expectedBody = ""
    private var shape: BodyShape? = null
    private var expectedContentType: String? = null
    private var body: ByteArray? = null
    private var bodyTemplate: String? = null
    private var contentType = Request.JSON
    private val headers = LinkedHashMap<String, String>()
    private var expect: ResponseExpectation? = null

    /** One more request header; sent in the order added. */
    fun header(name: String, value: String) = apply { headers[name] = value }

    /** A constant body, sent as it is (no placeholders). */
    fun body(bytes: ByteArray) = apply { body = bytes }

    /** A constant body, UTF-8 (no placeholders). */
    fun body(text: String) = apply { body = text.toByteArray(StandardCharsets.UTF_8) }

    /** A body rendered per request from its placeholders (`{{seq}}`, `{{random}}`, `{{uuid}}`). */
    fun bodyTemplate(template: String) = apply { bodyTemplate = template }

    fun contentType(type: String) = apply { contentType = type }

    /** [Request.expectedBody]: the only body a response may have (empty by default, as a HEAD's). */
    fun expectBody(expected: String) = apply { expectedBody = expected }

    /** [Request.shape], with [description] as its [Request.expectedBody]. */
    fun expectShape(shape: BodyShape, description: String) = apply {
        this.shape = shape
        expectedBody = description
    }

    /** [Request.expectedContentType]. */
    fun expectContentType(type: String) = apply { expectedContentType = type }

    /** [Request.expect]: statuses, JSON fields, a regex or a length range in place of the exact body. */
    fun expect(expectation: ResponseExpectation) = apply { expect = expectation }

    fun build() = Request(
        path,
        expectedBody,
        shape,
        body,
        contentType,
        expectedContentType,
        bodyTemplate,
        method,
        LinkedHashMap(headers),
        expect,
    )
}
