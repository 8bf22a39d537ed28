package serverbench.workload

import io.netty.buffer.Unpooled
import org.junit.jupiter.api.assertThrows
import serverbench.client.Request
import serverbench.client.ResponseCheck
import serverbench.client.ResponseParser
import java.nio.file.Path
import kotlin.test.assertEquals

/** What the `.http` tests share: parsing a text as `orders.http`, its one-line errors, and judging responses. */
internal object HttpFiles {
    const val NAME = "orders.http"

    /** [text] parsed as [NAME]; a raw string starting with a new line is trimIndent-ed, any other is as given. */
    fun parse(text: String, variables: Map<String, String> = emptyMap(), baseDir: Path? = null): HttpWorkload =
        HttpWorkload.parse(if (text.startsWith("\n")) text.trimIndent() else text, NAME, variables, baseDir)

    /** The only request of [text]. */
    fun request(text: String, variables: Map<String, String> = emptyMap()): Request =
        parse(text, variables).requests.single().request

    /** The message [text] is refused with; it must be one line. */
    fun error(text: String, variables: Map<String, String> = emptyMap(), baseDir: Path? = null): String {
        val message = assertThrows<HttpFileException> { parse(text, variables, baseDir) }.message!!
        assertEquals(1, message.lines().size, message)
        return message
    }

    /**
     * Null when [request] accepts a response of [status], [type] and [body] (parsed as the HTTP/1.1 client parses
     * it, judged as both protocols judge it), else its failure kind and line.
     */
    fun verdict(request: Request, body: String, status: Int = 200, type: String? = "application/json"): String? {
        val check = ResponseCheck(request)
        val parser =
            ResponseParser(Unpooled.wrappedBuffer(request.expected), check.expectedType, check.exact, check.newBuffer())
        val bytes = body.toByteArray(Charsets.UTF_8)
        val head = "HTTP/1.1 $status X\r\n" + (type?.let { "Content-Type: $it\r\n" } ?: "") +
            "Content-Length: ${bytes.size}\r\n\r\n"
        val result = parser.parse(Unpooled.wrappedBuffer(head.toByteArray(Charsets.ISO_8859_1) + bytes))
        assertEquals(ResponseParser.COMPLETE, result, "parsed")
        val rejection = check.verdict(
            parser.status,
            parser.contentTypeMatches,
            parser.contentType,
            parser.bodyMatch,
            parser.kept,
            null,
        )
        return rejection?.let { "${it.kind.label}: ${it.detail}" }
    }

    /** The request's HTTP/1.1 bytes, as text, with sample placeholder values. */
    fun wire(request: Request): String = String(request.wireBytes("localhost", 8080), Charsets.UTF_8)
}
