package serverbench.client

import io.netty.channel.IoHandlerFactory
import io.netty.channel.epoll.Epoll
import io.netty.channel.epoll.EpollIoHandler
import io.netty.channel.epoll.EpollServerSocketChannel
import io.netty.channel.epoll.EpollSocketChannel
import io.netty.channel.nio.NioIoHandler
import io.netty.channel.socket.ServerSocketChannel
import io.netty.channel.socket.SocketChannel
import io.netty.channel.socket.nio.NioServerSocketChannel
import io.netty.channel.socket.nio.NioSocketChannel

/**
 * The socket transport of the load client (and of the downstream stub): Linux epoll when Netty's native library loads
 * (fewer syscalls and no selector garbage, which matters because client CPU is taken from the cores the server also
 * needs), else NIO.
 */
class Transport private constructor(
    val name: String,
    val ioHandlerFactory: () -> IoHandlerFactory,
    val channelClass: Class<out SocketChannel>,
    val serverChannelClass: Class<out ServerSocketChannel>,
) {
    companion object {
        val current: Transport by lazy {
            if (Epoll.isAvailable()) {
                Transport(
                    "epoll",
                    { EpollIoHandler.newFactory() },
                    EpollSocketChannel::class.java,
                    EpollServerSocketChannel::class.java,
                )
            } else {
                Transport(
                    "nio",
                    { NioIoHandler.newFactory() },
                    NioSocketChannel::class.java,
                    NioServerSocketChannel::class.java,
                )
            }
        }
    }
}
