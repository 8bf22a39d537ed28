package serverbench.client

/**
 * What a response must be to count as a success, declared per [Request] (`Request(..., expect = ...)`), most easily
 * from [Expect]: `Expect.status(200, 201).contentType("application/json").json("/id", Expect.integer())`.
 * Immutable: each method returns a copy with one more check.
 *
 * - **Status**: one of [statuses]; none declared, any 2xx (the default without an expectation too).
 * - **Content-Type**: starts with [contentType], case-insensitively, as [Request.expectedContentType].
 * - **Body**: with no body check declared, the body must equal [Request.expectedBody] byte for byte, compared as it
 *   arrives (no copy). Declaring any of [fields] (JSON Pointer checks), [bodyPattern] (a regex the whole body
 *   matches) or [bodyLength] (a range of lengths) replaces that comparison, and [Request.expectedBody] then only
 *   describes the answer in failure lines.
 *
 * Cost: the JSON and regex checks need the whole body, so such a request keeps each body in a per-connection buffer
 * of at most [maxBodyBytes] (a longer body fails, saying so) and parses it once (Jackson) or decodes it (regex) per
 * response: CPU the client takes from the machine. A length range alone counts bytes and buffers nothing.
 */
class ResponseExpectation internal constructor(
    /** The statuses accepted; empty: any 2xx. */
    val statuses: Set<Int> = emptySet(),
    /** The prefix the `Content-Type` must start with (case-insensitive), or null: any. */
    val contentType: String? = null,
    /** The JSON fields to check, in the order declared; the first that fails is the one reported. */
    val fields: List<JsonFieldCheck> = emptyList(),
    /** A regex the whole body (as UTF-8 text) must match, or null. */
    val bodyPattern: String? = null,
    /** The body lengths accepted, in bytes, or null: any. */
    val bodyLength: LongRange? = null,
    /** The longest body, in bytes, kept for the JSON and regex checks (and a [BodyShape]); a longer one fails. */
    val maxBodyBytes: Int = DEFAULT_MAX_BODY_BYTES,
) {
    // Compiled once, when declared: a bad regex fails where it is written.
    internal val pattern: Regex? = bodyPattern?.let { Regex(it) }

    /** The body is checked by what is declared here, not compared with the expected bytes. */
    internal val checksBody: Boolean get() = fields.isNotEmpty() || bodyPattern != null || bodyLength != null

    /** The declared checks need the whole body at once. */
    internal val needsWholeBody: Boolean get() = fields.isNotEmpty() || bodyPattern != null

    @Suppress("LongParameterList") // One per kind of check, each defaulting to this expectation's.
    private fun copy(
        statuses: Set<Int> = this.statuses,
        contentType: String? = this.contentType,
        fields: List<JsonFieldCheck> = this.fields,
        bodyPattern: String? = this.bodyPattern,
        bodyLength: LongRange? = this.bodyLength,
        maxBodyBytes: Int = this.maxBodyBytes,
    ) = ResponseExpectation(statuses, contentType, fields, bodyPattern, bodyLength, maxBodyBytes)

    /** The status must be one of [codes] (replacing any declared before). */
    fun status(vararg codes: Int): ResponseExpectation {
        require(codes.isNotEmpty()) { "expect at least one status" }
        codes.forEach { require(it in 101..599) { "not a final HTTP status: $it" } }
        return copy(statuses = codes.toSortedSet())
    }

    /** The `Content-Type` must start with [prefix], in any case (`application/json` accepts `...; charset=UTF-8`). */
    fun contentType(prefix: String): ResponseExpectation {
        require(prefix.isNotBlank() && prefix.none { it == '\r' || it == '\n' }) { "bad content type: \"$prefix\"" }
        return copy(contentType = prefix)
    }

    /** The body is JSON whose field at [pointer] (RFC 6901, e.g. `/items/0/name`) passes [value]. */
    fun json(pointer: String, value: JsonValueCheck): ResponseExpectation =
        copy(fields = fields + JsonFieldCheck(pointer, value))

    /** The whole body, as UTF-8 text, matches [regex] (use `(?s)` for `.` to cross lines). */
    fun bodyMatches(regex: String): ResponseExpectation = copy(bodyPattern = regex)

    /** The body is from [min] to [max] bytes long, both included. */
    fun bodyLength(min: Long, max: Long): ResponseExpectation {
        require(min in 0..max) { "body length range must be 0 <= min <= max, was $min..$max" }
        return copy(bodyLength = min..max)
    }

    /** Keep bodies of up to [bytes] for the whole-body checks (default [DEFAULT_MAX_BODY_BYTES]). */
    fun maxBodyBytes(bytes: Int): ResponseExpectation {
        require(bytes in 1..MAX_BODY_BYTES) { "maxBodyBytes must be from 1 to $MAX_BODY_BYTES, was $bytes" }
        return copy(maxBodyBytes = bytes)
    }

    override fun toString(): String = listOfNotNull(
        if (statuses.isEmpty()) "status 2xx" else "status ${statuses.joinToString("|")}",
        contentType?.let { "Content-Type $it*" },
        bodyPattern?.let { "body ~ $it" },
        bodyLength?.let { "${it.first}..${it.last} bytes" },
    ).plus(fields.map { it.toString() }).joinToString(", ")

    companion object {
        /** 64 KiB: above the JSON answers APIs usually give, and a bound on what a connection holds. */
        const val DEFAULT_MAX_BODY_BYTES = 64 * 1024

        /** 64 MiB: a buffer per connection, so a bound that many connections can still afford. */
        const val MAX_BODY_BYTES = 64 * 1024 * 1024
    }
}
