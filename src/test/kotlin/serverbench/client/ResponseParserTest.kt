package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

class ResponseParserTest {
    private fun parser(expected: String = "hello") = ResponseParser(Unpooled.copiedBuffer(expected, Charsets.UTF_8))

    private fun buf(s: String): ByteBuf = Unpooled.copiedBuffer(s, Charsets.ISO_8859_1)

    /** Feeds [chunks] as successive reads, keeping unread bytes the way the client does; returns the last outcome. */
    private fun feed(p: ResponseParser, vararg chunks: String): Pair<Int, Int> {
        var carry = Unpooled.buffer()
        var result = ResponseParser.NEED_MORE
        for (c in chunks) {
            carry.writeBytes(buf(c))
            result = p.parse(carry)
            if (result != ResponseParser.NEED_MORE) break
            carry = Unpooled.buffer().writeBytes(carry)
        }
        return result to carry.readableBytes()
    }

    @Test
    fun `content-length response in one read`() {
        val p = parser()
        val (r, left) = feed(p, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello")
        assertEquals(ResponseParser.COMPLETE, r)
        assertEquals(0, left)
        assertEquals(200, p.status)
        assertTrue(p.keepAlive)
        assertTrue(p.bodyMatches)
        assertEquals(5, p.bodyLength)
        assertNull(p.sample)
    }

    @Test
    fun `every split point of content-length and chunked responses parses the same`() {
        val responses = listOf(
            "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhe\r\n3;ext=1\r\nllo\r\n0\r\nX-Trailer: " +
                "t\r\n\r\n",
            "HTTP/1.1 200 OK\r\ntransfer-encoding: CHUNKED\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        )
        for (text in responses) {
            for (split in 1 until text.length) {
                val p = parser()
                val (r, left) = feed(p, text.substring(0, split), text.substring(split))
                assertEquals(ResponseParser.COMPLETE, r, "split at $split of ${text.replace("\r\n", "|")}")
                assertEquals(0, left)
                assertEquals(200, p.status)
                assertTrue(p.bodyMatches, "split at $split")
                assertEquals(5, p.bodyLength, "split at $split")
            }
        }
    }

    @Test
    fun `connection close and HTTP 1_0 keep-alive rules`() {
        val close = parser()
        feed(close, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello")
        assertFalse(close.keepAlive)

        val http10 = parser()
        feed(http10, "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello")
        assertFalse(http10.keepAlive)

        val http10KeepAlive = parser()
        feed(http10KeepAlive, "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 5\r\n\r\nhello")
        assertTrue(http10KeepAlive.keepAlive)
    }

    @Test
    fun `wrong body, longer body and error status are reported with a sample`() {
        val wrong = parser()
        assertEquals(ResponseParser.COMPLETE, feed(wrong, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhellx").first)
        assertFalse(wrong.bodyMatches)
        assertEquals("hellx", wrong.sample)

        val longer = parser()
        feed(longer, "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nhello!")
        assertFalse(longer.bodyMatches)

        val shorter = parser()
        feed(shorter, "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nhell")
        assertTrue(shorter.bodyMatches) // a prefix so far; the client checks the length at the end
        assertEquals(4, shorter.bodyLength)

        val error = parser()
        feed(error, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\noops!")
        assertEquals(500, error.status)
        assertEquals("oops!", error.sample)

        val split = parser()
        feed(split, "HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nhel", "lo world", "!")
        assertFalse(split.bodyMatches)
        assertEquals("hello world!", split.sample, "the sample spans reads and keeps the bytes that matched")
    }

    @Test
    fun `responses without a body and bodies delimited by close`() {
        val noContent = parser()
        assertEquals(ResponseParser.COMPLETE, feed(noContent, "HTTP/1.1 204 No Content\r\n\r\n").first)
        assertEquals(204, noContent.status)

        val untilClose = parser()
        assertEquals(ResponseParser.NEED_MORE, feed(untilClose, "HTTP/1.1 200 OK\r\n\r\nhel", "lo").first)
        assertFalse(untilClose.keepAlive)
        assertEquals(ResponseParser.COMPLETE, untilClose.endOfInput())
        assertTrue(untilClose.bodyMatches)
        assertEquals(5, untilClose.bodyLength)

        val cut = parser()
        feed(cut, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhe")
        assertEquals(ResponseParser.NEED_MORE, cut.endOfInput())
    }

    @Test
    fun `interim 1xx responses are skipped, in one read or split`() {
        val text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
        for (split in listOf(text.length, 20, 25, 30)) {
            val p = parser()
            val (r, left) = if (split ==
                text.length
            ) {
                feed(p, text)
            } else {
                feed(p, text.substring(0, split), text.substring(split))
            }
            assertEquals(ResponseParser.COMPLETE, r, "split $split")
            assertEquals(0, left)
            assertEquals(200, p.status)
            assertTrue(p.bodyMatches)
        }
    }

    @Test
    fun `endless chunk lines and bad chunk terminators are malformed`() {
        val endless = parser()
        assertEquals(
            ResponseParser.MALFORMED,
            feed(endless, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + "1".repeat(70_000)).first,
        )
        val badEnd = parser()
        assertEquals(
            ResponseParser.MALFORMED,
            feed(badEnd, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloX\n0\r\n\r\n").first,
        )
    }

    @Test
    fun `bytes after a complete response stay unread`() {
        val p = parser()
        val (r, left) = feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloEXTRA")
        assertEquals(ResponseParser.COMPLETE, r)
        assertEquals(5, left)
    }

    @Test
    fun `malformed input is named`() {
        for (bad in listOf("HTTX/1.1 200 OK\r\n\r\n", "HTTP/1.1 2x0 OK\r\n\r\n", "garbage\r\n\r\n")) {
            val p = parser()
            assertEquals(ResponseParser.MALFORMED, feed(p, bad).first, bad)
            assertTrue(p.problem!!.startsWith("bad status line"), p.problem)
        }
        val badChunk = parser()
        assertEquals(
            ResponseParser.MALFORMED,
            feed(badChunk, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").first,
        )
        val badLength = parser()
        assertEquals(ResponseParser.MALFORMED, feed(badLength, "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n").first)
        val huge = parser()
        assertEquals(ResponseParser.MALFORMED, feed(huge, "HTTP/1.1 200 OK\r\nX: " + "a".repeat(70_000)).first)
    }

    @Test
    fun `reset makes the parser ready for the next response`() {
        val p = parser()
        feed(p, "HTTP/1.1 500 Oops\r\nContent-Length: 3\r\n\r\nbad")
        p.reset()
        assertEquals(ResponseParser.COMPLETE, feed(p, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello").first)
        assertEquals(200, p.status)
        assertTrue(p.bodyMatches)
        assertNull(p.sample)
    }
}
