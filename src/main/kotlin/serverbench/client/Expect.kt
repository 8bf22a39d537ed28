package serverbench.client

/**
 * Where a [ResponseExpectation] starts, and the checks of a JSON field's value. From Kotlin:
 *
 * ```kotlin
 * Request("/orders", "an order with a generated id", body = order, expect = Expect.status(201)
 *     .contentType(Request.JSON).json("/id", Expect.integer()).json("/state", Expect.value("NEW"))
 *     .json("/createdAt", Expect.matches("\\d{4}-\\d{2}-\\d{2}T.*")))
 * ```
 *
 * From Java, the same calls: `Expect.status(201).json("/id", Expect.integer())`.
 */
object Expect {
    /** The status must be one of [codes]. */
    @JvmStatic
    fun status(vararg codes: Int): ResponseExpectation = ResponseExpectation().status(*codes)

    /** The `Content-Type` must start with [prefix], case-insensitively. */
    @JvmStatic
    fun contentType(prefix: String): ResponseExpectation = ResponseExpectation().contentType(prefix)

    /** The body is JSON whose field at [pointer] (RFC 6901) passes [value]. */
    @JvmStatic
    fun json(pointer: String, value: JsonValueCheck): ResponseExpectation = ResponseExpectation().json(pointer, value)

    /** The whole body matches [regex]. */
    @JvmStatic
    fun bodyMatches(regex: String): ResponseExpectation = ResponseExpectation().bodyMatches(regex)

    /** The body is from [min] to [max] bytes long. */
    @JvmStatic
    fun bodyLength(min: Long, max: Long): ResponseExpectation = ResponseExpectation().bodyLength(min, max)

    /** Only the bound of the kept body (for a [BodyShape]'s longer answers); no other check. */
    @JvmStatic
    fun maxBodyBytes(bytes: Int): ResponseExpectation = ResponseExpectation().maxBodyBytes(bytes)

    /** The value equals [expected]: a String, a number (integers exactly, decimals by value), a Boolean, or null. */
    @JvmStatic
    fun value(expected: Any?): JsonValueCheck = JsonValueCheck.equalTo(expected)

    /** The value is of [type]. */
    @JvmStatic
    fun type(type: JsonType): JsonValueCheck = JsonValueCheck.type(type)

    /** The value is an integer (`42`; not `42.0`, not `"42"`): a generated numeric id. */
    @JvmStatic
    fun integer(): JsonValueCheck = JsonValueCheck.type(JsonType.INTEGER)

    /** The value is a number. */
    @JvmStatic
    fun number(): JsonValueCheck = JsonValueCheck.type(JsonType.NUMBER)

    /** The value is a string. */
    @JvmStatic
    fun string(): JsonValueCheck = JsonValueCheck.type(JsonType.STRING)

    /** A string whose whole text, or a number or boolean whose JSON text, matches [regex]: a timestamp, a UUID. */
    @JvmStatic
    fun matches(regex: String): JsonValueCheck = JsonValueCheck.matches(regex)

    /** Any value, `null` included: only a missing field fails. */
    @JvmStatic
    fun present(): JsonValueCheck = JsonValueCheck.present()
}
