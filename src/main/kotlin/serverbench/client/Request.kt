package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import java.nio.charset.StandardCharsets
import java.util.concurrent.atomic.AtomicLong

/**
 * One request the client repeats, and the only answer it accepts. By default: status 2xx and a body equal to
 * [expectedBody], compared as bytes arrive, so it costs a memcmp per response, not a parse. With a [shape], the body
 * may differ per response: the shape checks it, and [expectedBody] only describes it in failure messages. With an
 * [expect] (docs/checks.md), the response is held to what it declares instead: a set of statuses, a `Content-Type`,
 * JSON fields by value, type or pattern, a regex, a length range; [expectedBody] then only describes the answer.
 * With an [expectedContentType], a response whose `Content-Type` does not start with it is an invalid body too.
 *
 * The request itself (docs/requests.md): any [method] (default POST with a body, GET without), extra [headers]
 * (checked when built: no CR/LF, a token name, none the client writes itself), and a body that is constant ([body])
 * or rendered per request from [bodyTemplate]. The template and the [path] may hold placeholders, drawn once per
 * request: `{{seq}}` (1, 2, 3, ... shared by every client sending this instance), `{{random}}` (a random long, 0 to
 * 2^63 - 1) and `{{uuid}}` (a random UUID); `\{{` is a literal `{{`. A request without placeholders is encoded once
 * per client and every send writes a view of those bytes; one with placeholders is rendered per send into a pooled
 * buffer (see [LoadClient]'s renderer). From Java, [builder] reads better than the positional constructors.
 */
class Request @JvmOverloads constructor(
    /** Path and query, as sent (`/cpu/direct?limit=10`); may hold placeholders (`/orders/{{seq}}`). */
    val path: String,
    val expectedBody: String,
    val shape: BodyShape? = null,
    val body: ByteArray? = null,
    val contentType: String = JSON,
    val expectedContentType: String? = null,
    /** A body rendered per request (UTF-8) from its placeholders; instead of [body], not with it. */
    val bodyTemplate: String? = null,
    val method: Method = if (body == null && bodyTemplate == null) Method.GET else Method.POST,
    /** Extra request headers, sent in this map's order (on HTTP/2 with lower-case names). */
    val headers: Map<String, String> = emptyMap(),
    /** What else a response must be (statuses, body checks instead of the exact body); see [ResponseExpectation]. */
    val expect: ResponseExpectation? = null,
) {
    init {
        require(path.startsWith("/") && path.none { it <= ' ' || it == '\u007f' }) {
            "request path must start with '/' and hold no space or control character: $path"
        }
        require(contentType.none { it == '\r' || it == '\n' }) { "content type must be one line: $contentType" }
        require(body == null || bodyTemplate == null) { "a request has a body or a body template, not both" }
        require(method.bodyAllowed || !hasBody) { "a $method request carries no body" }
        require(method != Method.HEAD || (expectedBody.isEmpty() && shape == null)) {
            "a HEAD response has no body: its expected body is \"\""
        }
        RequestHeaders.check(headers)
    }

    /** The path's placeholders, parsed; constant when it has none. */
    internal val pathTemplate: Template = Template.parse(path, "request path")

    /** The body's bytes and placeholders, parsed; null without a body. */
    internal val bodyParts: Template? = bodyTemplate?.let { Template.parse(it, "request body template") }
        ?: body?.let { Template.constant(it) }

    /** Whether each send renders the request anew: its path or body has a placeholder. */
    internal val templated: Boolean = pathTemplate.constant == null || (bodyParts != null && bodyParts.constant == null)

    /** `{{seq}}`'s counter: one per instance, so every client and thread sending it draws distinct numbers. */
    internal val sequence = AtomicLong(1)

    /** It carries a body (maybe empty): a constant one or a template. */
    val hasBody: Boolean get() = body != null || bodyTemplate != null

    /** The exact body; empty with a [shape], so the parser keeps the body (up to its sample size) for the shape. */
    val expected: ByteArray = if (shape == null) expectedBody.toByteArray(StandardCharsets.UTF_8) else ByteArray(0)

    /**
     * The request's bytes on the wire, head and body: what the server reads per request. A templated request's
     * differ per send; these are one rendering of it, with placeholder values as wide as a run's.
     */
    fun wireBytes(host: String, port: Int): ByteArray = RequestRenderer(this, host, port).sampleH1()

    /**
     * The request bytes, encoded once per client (which releases them): the hot path writes a view of this buffer and
     * never formats or allocates a request.
     */
    internal fun encode(host: String, port: Int): ByteBuf {
        val bytes = wireBytes(host, port)
        return Unpooled.directBuffer(bytes.size).writeBytes(bytes)
    }

    override fun toString() = "$method $path" + when {
        body != null -> " (${body.size}-byte body)"
        bodyTemplate != null -> " (body from a template)"
        else -> ""
    }

    companion object {
        const val JSON = "application/json"

        /** A [RequestBuilder] for [method] [path]: the readable way to write a request from Java. */
        @JvmStatic
        fun builder(method: Method, path: String): RequestBuilder = RequestBuilder(method, path)
    }
}
