package serverbench.client

/**
 * The HTTP method of a [Request]. [GET] and [HEAD] carry no body (on HTTP/2 no DATA frame); [POST], [PUT] and [PATCH]
 * without one still send `Content-Length: 0`, which servers want on a method that may carry a body (RFC 9110 §8.6);
 * a response to [HEAD] has headers only, whatever its `Content-Length` says.
 */
enum class Method(
    /** Whether a request of this method may carry a body. */
    val bodyAllowed: Boolean,
    /** Whether a request without a body still says `Content-Length: 0`. */
    internal val emptyBodyHasLength: Boolean,
) {
    GET(false, false),
    HEAD(false, false),
    POST(true, true),
    PUT(true, true),
    PATCH(true, true),
    DELETE(true, false),
}
