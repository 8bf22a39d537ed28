package serverbench.client

import io.netty.buffer.ByteBuf
import io.netty.channel.ChannelHandlerContext
import io.netty.handler.codec.http2.Http2Error
import io.netty.handler.codec.http2.Http2FrameAdapter
import io.netty.handler.codec.http2.Http2Headers
import io.netty.handler.codec.http2.Http2Settings

/** The frames of an [H2Connection] that Netty's decoder hands on: each stream's to its [H2Stream], the rest to it. */
internal class H2Frames(private val c: H2Connection) : Http2FrameAdapter() {

    override fun onSettingsRead(ctx: ChannelHandlerContext, settings: Http2Settings) = c.settings(ctx, settings)

    override fun onHeadersRead(
        ctx: ChannelHandlerContext,
        streamId: Int,
        headers: Http2Headers,
        padding: Int,
        endOfStream: Boolean,
    ) {
        val s = c.byId.get(streamId) ?: return
        if (endOfStream) c.byId.remove(streamId)
        s.headers(headers, endOfStream)
    }

    override fun onHeadersRead(
        ctx: ChannelHandlerContext,
        streamId: Int,
        headers: Http2Headers,
        streamDependency: Int,
        weight: Short,
        exclusive: Boolean,
        padding: Int,
        endOfStream: Boolean,
    ) = onHeadersRead(ctx, streamId, headers, padding, endOfStream)

    override fun onDataRead(
        ctx: ChannelHandlerContext,
        streamId: Int,
        data: ByteBuf,
        padding: Int,
        endOfStream: Boolean,
    ): Int {
        val processed = data.readableBytes() + padding
        val s = c.byId.get(streamId) ?: return processed
        if (endOfStream) c.byId.remove(streamId)
        s.data(data, endOfStream)
        return processed
    }

    override fun onRstStreamRead(ctx: ChannelHandlerContext, streamId: Int, errorCode: Long) {
        val s = c.byId.remove(streamId) ?: return
        val name = Http2Error.valueOf(errorCode)?.name ?: "$errorCode"
        if (s.failed(FailureKind.RESET, "stream reset by the server (RST_STREAM $name)")) c.finished(s)
    }

    override fun onGoAwayRead(ctx: ChannelHandlerContext, lastStreamId: Int, errorCode: Long, debugData: ByteBuf) {
        // Netty closes the streams above lastStreamId right after this: onStreamClosed counts each as GOAWAY.
        c.goAwayError = errorCode
        c.retire()
    }
}
