package dev.kubeloop.webhook;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;

/**
 * The first handler of a connection, with its handshake deadline: a connection must complete its
 * TLS handshake within {@code handshakeTimeout} of being accepted, whatever it sends or does not
 * send ({@link ConnectionEnd#HANDSHAKE_TIMEOUT}). The first byte decides what it speaks: a TLS
 * handshake record (0x16) puts an {@link SslHandler} in this handler's place; a letter is plain
 * HTTP, answered as Go's TLS server answers it (400, "Client sent an HTTP request to an HTTPS
 * server.") so that someone who forgot {@code https://} reads why; anything else is closed.
 *
 * <p>State ownership: one instance per connection, used on its event loop only.
 */
final class TlsOrPlainHttp extends ByteToMessageDecoder {

    /** What Go's {@code net/http} server writes for plain HTTP on a TLS port. */
    static final byte[] PLAIN_HTTP_ANSWER = ("HTTP/1.0 400 Bad Request\r\n\r\n"
            + "Client sent an HTTP request to an HTTPS server.\n").getBytes(StandardCharsets.US_ASCII);

    private static final int TLS_HANDSHAKE_RECORD = 0x16;

    private final ServerTls tls;
    private final Duration handshakeTimeout;
    private final WebhookServerStats stats;
    private final ConnectionLimit limit;
    private ScheduledFuture<?> deadline;

    TlsOrPlainHttp(ServerTls tls, Duration handshakeTimeout, WebhookServerStats stats, ConnectionLimit limit) {
        this.tls = tls;
        this.handshakeTimeout = handshakeTimeout;
        this.stats = stats;
        this.limit = limit;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        stats.handshakeStarted();
        deadline = ctx.executor().schedule(() -> {
            deadline = null;
            stats.handshakeEnded();
            stats.closedFor(ConnectionEnd.HANDSHAKE_TIMEOUT);
            ctx.channel().close();
        }, handshakeTimeout.toNanos(), TimeUnit.NANOSECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        handshakeOver();
        super.channelInactive(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return;
        }
        int first = in.getUnsignedByte(in.readerIndex());
        if (first == TLS_HANDSHAKE_RECORD) {
            SslHandler ssl = new SslHandler(engine(ctx));
            ssl.setHandshakeTimeoutMillis(0); // ours runs from the accept, not from the first byte
            ssl.handshakeFuture().addListener(done -> {
                boolean ended = handshakeOver();
                if (done.isSuccess()) {
                    limit.handshaken(ctx.channel());
                }
                if (!done.isSuccess() && ended && ctx.channel().isActive()) { // not a client gone or evicted
                    stats.closedFor(ConnectionEnd.HANDSHAKE_FAILED);
                }
            });
            // the deadline and the handshake future now own this connection's handshake state
            ctx.pipeline().replace(this, "tls", ssl);
            return;
        }
        in.skipBytes(in.readableBytes());
        handshakeOver();
        if (Character.isLetter(first)) {
            stats.closedFor(ConnectionEnd.PLAIN_HTTP);
            ctx.writeAndFlush(Unpooled.wrappedBuffer(PLAIN_HTTP_ANSWER)).addListener(ChannelFutureListener.CLOSE);
        } else {
            stats.closedFor(ConnectionEnd.HANDSHAKE_FAILED);
            ctx.close();
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        // replaced by the SslHandler: the deadline keeps running until its handshake future completes
    }

    /** Ends the handshake's accounting once; true if this call ended it. */
    private boolean handshakeOver() {
        if (deadline == null) {
            return false;
        }
        deadline.cancel(false);
        deadline = null;
        stats.handshakeEnded();
        return true;
    }

    private SSLEngine engine(ChannelHandlerContext ctx) {
        SSLEngine engine = tls.context().createSSLEngine();
        engine.setUseClientMode(false);
        engine.setSSLParameters(tls.parameters());
        return engine;
    }
}
