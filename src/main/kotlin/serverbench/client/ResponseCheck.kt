package serverbench.client

import tools.jackson.core.JacksonException
import tools.jackson.databind.DeserializationFeature
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.nio.charset.StandardCharsets

/**
 * A [Request]'s checks of a complete response (its [ResponseExpectation], [Request.expectedContentType], its exact
 * body or [BodyShape]), as HTTP/1.1 ([Connection]) and HTTP/2 ([H2Stream]) both apply them: one per client, shared by
 * its connections, which keep their own per-response state ([BodyMatch], [BodyBuffer], a shape's [BodyCheck]).
 */
internal class ResponseCheck(private val request: Request) {
    private val expect: ResponseExpectation? = request.expect

    init {
        require(request.expectedContentType == null || expect?.contentType == null) {
            "$request: both expectedContentType and expect.contentType are set; declare the Content-Type once"
        }
    }

    /** Accepted statuses by code; null: any 2xx. */
    private val statuses: BooleanArray? = expect?.statuses?.takeIf { it.isNotEmpty() }?.let { codes ->
        BooleanArray(STATUS_CODES).also { a -> codes.forEach { a[it] = true } }
    }

    /** The `Content-Type` prefix the response must have, as declared, or null: any. */
    val contentType: String? = request.expectedContentType ?: expect?.contentType

    /** [contentType] lower case, as the parsers compare it. */
    val expectedType: ByteArray? = contentType?.lowercase()?.toByteArray(StandardCharsets.US_ASCII)

    /** The body is compared byte for byte with [Request.expectedBody] as it arrives: the default, and the cheapest. */
    val exact: Boolean = request.shape == null && expect?.checksBody != true

    /** Bytes of the body each connection keeps for the whole-body checks; 0 when none is declared. */
    private val keep: Int = if (request.shape != null || expect?.needsWholeBody == true) {
        expect?.maxBodyBytes ?: ResponseExpectation.DEFAULT_MAX_BODY_BYTES
    } else {
        0
    }

    /** A connection's or stream's buffer for the body, or null when no check needs the body whole. */
    fun newBuffer(): BodyBuffer? = if (keep > 0) BodyBuffer(keep) else null

    fun accepts(status: Int): Boolean =
        statuses?.let { status in it.indices && it[status] } ?: (status in SUCCESS_FROM..SUCCESS_TO)

    /**
     * Null when the response passes, else why not, as one line: by [status], whether its `Content-Type`
     * [typeMatches] (else it was [type]), its [body] as counted and compared, the [kept] body, and the connection's
     * [shape] check. The first failed check is the one reported: status, Content-Type, length, then the body.
     */
    @Suppress("LongParameterList") // What one response left in its connection's state, read once at its end.
    fun verdict(
        status: Int,
        typeMatches: Boolean,
        type: CharSequence?,
        body: BodyMatch,
        kept: BodyBuffer?,
        shape: BodyCheck?,
    ): Rejection? {
        val length = body.length
        val lengths = expect?.bodyLength
        return when {
            !accepts(status) -> Rejection(
                if (status in SUCCESS_FROM..SUCCESS_TO) FailureKind.UNEXPECTED_STATUS else FailureKind.NON_2XX,
                statusLine(status, body.sample, length),
            )

            !typeMatches -> invalid("Content-Type \"${oneLine(type?.toString() ?: "")}\", expected $contentType")

            exact -> if (body.complete) {
                null
            } else {
                invalid(invalidBody(body.received, length, body.difference, request.expectedBody))
            }

            lengths != null && length !in lengths ->
                invalid("body of $length bytes, expected ${lengths.first} to ${lengths.last} bytes")

            kept == null -> null

            kept.overflow -> invalid(
                "body of $length bytes, over the ${kept.bound}-byte bound of its JSON, regex or shape check; " +
                    "raise it with the request's expectation, .maxBodyBytes(n) (at most " +
                    "${ResponseExpectation.MAX_BODY_BYTES})",
            )

            else -> wholeBody(kept, shape)?.let { invalid(it) }
        }
    }

    private fun statusLine(status: Int, sample: String?, length: Long): String {
        val got = "HTTP $status" + (sample?.let { " \"${bodySample(it, length)}\"" } ?: "")
        val codes = expect?.statuses.orEmpty()
        return when (codes.size) {
            0 -> got
            1 -> "$got, expected ${codes.first()}"
            else -> "$got, expected one of ${codes.joinToString(", ")}"
        }
    }

    /** The checks that read the whole body: the regex, the JSON fields (one parse for all), the shape. */
    private fun wholeBody(kept: BodyBuffer, shape: BodyCheck?): String? {
        val text = if (expect?.pattern != null || shape != null) kept.text() else null
        val pattern = expect?.pattern
        if (pattern != null && !pattern.matches(text!!)) {
            return "body \"${oneLine(text)}\" (${kept.length} bytes), expected to match ${expect.bodyPattern}"
        }
        val fields = expect?.fields.orEmpty()
        if (fields.isNotEmpty()) {
            val document = json(kept) ?: return notJson(kept)
            for (field in fields) {
                field.problem(document)?.let {
                    return "$it; body \"${bodySample(kept.sample(), kept.length.toLong())}\" (${kept.length} bytes)"
                }
            }
        }
        return shape?.check(text!!)?.let { "body \"${oneLine(text)}\": $it, expected ${request.expectedBody}" }
    }

    private fun json(kept: BodyBuffer): JsonNode? = try {
        MAPPER.readTree(kept.array(), 0, kept.length)?.takeUnless { it.isMissingNode }
    } catch (e: JacksonException) {
        null
    }

    /** What is wrong with a body that is not one JSON document: Jackson's reason, without its location dump. */
    private fun notJson(kept: BodyBuffer): String {
        if (kept.length == 0) return "body is empty, expected a JSON document"
        val why = try {
            MAPPER.readTree(kept.array(), 0, kept.length)
            "no JSON value"
        } catch (e: JacksonException) {
            oneLine(e.originalMessage ?: e.javaClass.simpleName)
        }
        return "body is not JSON ($why): \"${oneLine(kept.sample())}\" (${kept.length} bytes)"
    }

    private fun invalid(detail: String) = Rejection(FailureKind.INVALID_BODY, detail)

    companion object {
        private const val STATUS_CODES = 600
        private const val SUCCESS_FROM = 200
        private const val SUCCESS_TO = 299

        /**
         * Shared by every client thread (Jackson's mappers are thread-safe once built). Decimals as BigDecimal, so an
         * expected `0.1` compares exactly; trailing bytes after the document make it not JSON.
         */
        private val MAPPER: JsonMapper = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build()
    }
}

/** A response that failed its request's checks: counted by [kind], described by [detail] (one line). */
internal class Rejection(val kind: FailureKind, val detail: String)
