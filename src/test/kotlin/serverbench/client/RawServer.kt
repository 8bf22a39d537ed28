package serverbench.client

import java.io.Closeable
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.util.concurrent.CopyOnWriteArrayList

/**
 * A hand-rolled loopback TCP server for client tests that need a misbehaving peer no real stack produces on demand
 * (closing mid-response, announcing Connection: close on every response). [handle] runs once per connection.
 */
class RawServer(private val handle: (Socket) -> Unit) : Closeable {
    private val server = ServerSocket(0, 50, InetAddress.getLoopbackAddress())
    private val sockets = CopyOnWriteArrayList<Socket>()
    val address = InetSocketAddress("127.0.0.1", server.localPort)

    private val acceptor = Thread {
        while (!server.isClosed) {
            val s = try {
                server.accept()
            } catch (e: Exception) {
                break
            }
            sockets += s
            Thread { s.use { runCatching { handle(it) } } }.apply { isDaemon = true }.start()
        }
    }.apply {
        isDaemon = true
        start()
    }

    override fun close() {
        server.close()
        sockets.forEach { runCatching { it.close() } }
        acceptor.join(2000)
    }

    companion object {
        /** Reads one request head (up to the blank line); false at end of stream. */
        fun readRequest(s: Socket): Boolean {
            val input = s.getInputStream()
            var last4 = 0
            while (true) {
                val b = input.read()
                if (b < 0) return false
                last4 = (last4 shl 8) or b
                if (last4 == 0x0d0a0d0a) return true
            }
        }

        /** A free loopback port with nothing listening on it. */
        fun unusedPort(): Int = ServerSocket(0, 1, InetAddress.getLoopbackAddress()).use { it.localPort }
    }
}
