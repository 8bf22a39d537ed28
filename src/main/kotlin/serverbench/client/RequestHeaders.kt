package serverbench.client

import java.util.Locale

/**
 * The rules for a [Request]'s extra headers: checked once, when the request is built (and for HTTP/2 when a client
 * is), so that a header that would corrupt the request or collide with what the client writes itself fails early with
 * one clear message instead of as a server's 400 under load.
 */
internal object RequestHeaders {
    /** Written by the client from the request itself: a user's copy would be a second, possibly conflicting one. */
    private val OWN = setOf("host", "content-length", "transfer-encoding", "content-type")

    /** Meaningful on one HTTP/1.1 connection only: HTTP/2 forbids them (RFC 9113 §8.2.2), `te` but `te: trailers`. */
    private val CONNECTION_SPECIFIC = setOf("connection", "keep-alive", "proxy-connection", "upgrade", "te")

    /** RFC 9110 `tchar`, besides letters and digits. */
    private const val TOKEN_PUNCTUATION = "!#$%&'*+-.^_`|~"

    /** Throws [IllegalArgumentException] for a header no request may carry. */
    fun check(headers: Map<String, String>) {
        for ((name, value) in headers) {
            require(isToken(name) && value.all { it == '\t' || it in ' '..'~' }) {
                "request header \"${escape(name)}: ${escape(value)}\": a name must be an HTTP token and a value " +
                    "one line of printable ASCII (no CR or LF)"
            }
            val lower = name.lowercase(Locale.ROOT)
            require(lower !in OWN) {
                "request header $name is written by the client itself" +
                    if (lower == "content-type") " (set the request's contentType)" else ""
            }
        }
    }

    /** Throws [IllegalArgumentException] for a header that HTTP/2 forbids (`-p protocol=h2`). */
    fun checkH2(headers: Map<String, String>) {
        for ((name, value) in headers) {
            val lower = name.lowercase(Locale.ROOT)
            require(lower !in CONNECTION_SPECIFIC || (lower == "te" && value.trim() == "trailers")) {
                "request header $name is connection-specific, which HTTP/2 forbids (-p protocol=h2)"
            }
        }
    }

    private fun isToken(name: String) =
        name.isNotEmpty() && name.all { it in 'a'..'z' || it in 'A'..'Z' || it in '0'..'9' || it in TOKEN_PUNCTUATION }

    /** The header as a failure message shows it: control characters escaped, so a CR or LF is visible. */
    private fun escape(s: String) = s.map { if (it < ' ' || it == '\u007f') "\\u%04x".format(it.code) else "$it" }
        .joinToString("")
}
