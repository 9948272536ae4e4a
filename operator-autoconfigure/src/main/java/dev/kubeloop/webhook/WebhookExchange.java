package dev.kubeloop.webhook;

import dev.kubeloop.runtime.Tracing;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's requests, one at a time, after its TLS handshake: read the request line and
 * headers, decide the refusals (404, 405, 415, 413, 503) before reading any body, gather the body
 * up to the limit, answer it on a webhook thread, write the answer, and keep the connection for
 * the next request (keep-alive). Deadlines: a connection waits for its next request at most the
 * idle timeout (then it is closed), and a request once begun must arrive whole within the request
 * timeout (then 408 and closed). While a request is answered the connection reads nothing more.
 *
 * <p>State ownership: one instance per connection; every field is used on its event loop only.
 * The body bytes go to the webhook thread as an array; its answer comes back through the event
 * loop. The budget reservation is owned here until the body is handed over, then by the task.
 */
final class WebhookExchange extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(WebhookServer.class);

    private enum State { WAITING, READING, DISCARDING, ANSWERING, CLOSING }

    /** As long as Go's server waits after a half-close before it closes (its rstAvoidanceDelay). */
    static final Duration LINGER = Duration.ofMillis(500);

    private final ServerParts parts;
    private State state = State.WAITING;
    private ScheduledFuture<?> deadline;
    private boolean begun;
    private static final String TRACEPARENT = "traceparent";
    private Webhook webhook;
    private long started;
    /** The request's W3C traceparent header (the API server's trace), read only while tracing is on. */
    private String traceparent;
    private boolean keepAlive;
    private CompositeByteBuf body;
    private long reserved;
    private long discarded;
    private WebhookAnswer refusal;
    private ChannelHandlerContext context;

    WebhookExchange(ServerParts parts) {
        this.parts = parts;
    }

    /**
     * Sits before the HTTP decoder: the first bytes of a request start its deadline (the decoder
     * reports the request only once its headers are whole, too late for a client sending them slowly).
     */
    ChannelInboundHandlerAdapter requestClock() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext clock, Object msg) {
                if (!begun && state == State.WAITING && msg instanceof ByteBuf bytes && bytes.isReadable()
                        && context != null) {
                    begun = true;
                    arm(context, parts.requestTimeout);
                }
                clock.fireChannelRead(msg);
            }
        };
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        context = ctx; // answers are written from here, through the HTTP encoder
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent done && done.isSuccess()) {
            arm(ctx, parts.idleTimeout);
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpRequest request) {
                begin(ctx, request);
            }
            if (msg instanceof HttpContent content && (state == State.READING || state == State.DISCARDING)) {
                gather(ctx, content);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void begin(ChannelHandlerContext ctx, HttpRequest request) {
        if (state != State.WAITING) { // pipelined: the API server never does it; answer what is being answered, then close
            keepAlive = false;
            return;
        }
        if (!begun) {
            begun = true;
            arm(ctx, parts.requestTimeout);
        }
        keepAlive = HttpUtil.isKeepAlive(request);
        if (request.decoderResult().isFailure()) {
            parts.stats.closedFor(ConnectionEnd.MALFORMED);
            keepAlive = false;
            answer(ctx, malformed(request.decoderResult().cause()));
            return;
        }
        String path = new QueryStringDecoder(request.uri()).path();
        webhook = parts.handler.at(path);
        long length = HttpUtil.getContentLength(request, -1L);
        if (webhook == null) {
            refusal = parts.handler.notFound(path);
        } else {
            started = System.nanoTime();
            traceparent = parts.tracing.on() ? request.headers().get(TRACEPARENT) : null;
            parts.observer.requestStarted(webhook);
            refusal = parts.handler.refusal(webhook, request.method().name(),
                    request.headers().get(HttpHeaderNames.CONTENT_TYPE), length);
        }
        if (refusal == null && length > BodyBudget.SMALL) {
            refusal = reserve(length);
        }
        boolean tooMuchToDrain = length > WebhookHttpHandler.DRAIN_BYTES;
        if (HttpUtil.is100ContinueExpected(request) || (refusal != null && tooMuchToDrain)) {
            if (refusal != null) { // do not invite, or wait for, a body that will be dropped
                keepAlive = false;
                answer(ctx, refusal);
                return;
            }
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        }
        if (refusal == null) {
            body = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
            state = State.READING;
        } else {
            state = State.DISCARDING;
        }
    }

    private void gather(ChannelHandlerContext ctx, HttpContent content) {
        ByteBuf bytes = content.content();
        if (state == State.READING) {
            long size = (long) body.readableBytes() + bytes.readableBytes();
            if (size > WebhookHttpHandler.MAX_BODY_BYTES) {
                refuseWhileReading(WebhookHttpHandler.tooLarge());
            } else if (size > BodyBudget.SMALL && reserved == 0) { // chunked: the limit reserved once it is large
                WebhookAnswer busy = reserve(WebhookHttpHandler.MAX_BODY_BYTES);
                if (busy != null) {
                    refuseWhileReading(busy);
                }
            }
        }
        if (state == State.READING) {
            body.addComponent(true, bytes.retain());
        } else {
            discarded += bytes.readableBytes();
        }
        if (content instanceof LastHttpContent) {
            if (state == State.READING) {
                dispatch(ctx);
            } else {
                answer(ctx, refusal);
            }
        } else if (state == State.DISCARDING && discarded > WebhookHttpHandler.DRAIN_BYTES) {
            keepAlive = false;
            answer(ctx, refusal);
        }
    }

    /** Null if the reservation is made, else the 503 to answer. */
    private WebhookAnswer reserve(long bytes) {
        if (parts.budget.tryReserve(bytes)) {
            reserved = bytes;
            return null;
        }
        return WebhookAnswer.text(503, "Too many large requests at once (" + parts.budget.inUse()
                + " bytes of bodies over " + BodyBudget.SMALL + " bytes in flight, budget " + parts.budget.capacity()
                + "); retry");
    }

    private void refuseWhileReading(WebhookAnswer answer) {
        refusal = answer;
        body.release();
        body = null;
        releaseReservation();
        state = State.DISCARDING;
    }

    private void dispatch(ChannelHandlerContext ctx) {
        cancelDeadline();
        state = State.ANSWERING;
        ctx.channel().config().setAutoRead(false);
        parts.limit.busy(ctx.channel());
        byte[] bytes = new byte[body.readableBytes()];
        body.readBytes(bytes);
        body.release();
        body = null;
        long held = reserved;
        reserved = 0;
        Webhook target = webhook;
        String parent = traceparent;
        parts.inFlight.begin();
        try {
            parts.workers.execute(new WaitingRequest(() -> {
                WebhookAnswer answer;
                long[] holding = {held};
                try {
                    WebhookAnswer refused = weigh(bytes, holding);
                    answer = refused != null ? refused : traced(target, bytes, parent);
                    if (answer.userCodeFailure() != null) {
                        parts.observer.userCodeFailed(target, answer.userCodeFailure());
                    }
                } catch (RuntimeException | Error e) { // Webhook#handle promises not to throw; if it did, a 500
                    log.error("Webhook request failed: {}", e.toString());
                    answer = WebhookAnswer.text(500, "Internal error: " + e.getClass().getSimpleName());
                } finally {
                    parts.budget.release(holding[0]);
                }
                WebhookAnswer done = answer;
                ctx.executor().execute(() -> answer(ctx, done));
            }));
        } catch (RejectedExecutionException e) {
            parts.budget.release(held);
            answer(ctx, WebhookAnswer.text(503, "All " + parts.workers.getMaximumPoolSize()
                    + " webhook threads are busy and " + parts.workers.getQueue().size() + " requests wait; retry"));
        }
    }

    /**
     * The webhook's answer, in a span of its own while tracing is on (current on this thread, so that
     * the validator's log lines carry its trace id): it joins the API server's trace when the request
     * carries one.
     */
    @SuppressWarnings("try") // the scope is held for its effect: the span current while it is open
    private WebhookAnswer traced(Webhook target, byte[] bytes, String parent) {
        if (!parts.tracing.on()) {
            return parts.handler.answer(target, bytes);
        }
        Tracing.Span span = parts.tracing.webhook(target.path(), parent);
        WebhookAnswer answer = null;
        try (Tracing.Scope scope = span.open()) {
            answer = parts.handler.answer(target, bytes);
            return answer;
        } finally {
            span.end(answer == null ? "500" : String.valueOf(answer.status()),
                    answer == null ? null : answer.userCodeFailure());
        }
    }

    /**
     * Weighs a body by its JSON values before any tree of it is built (on the webhook thread: one
     * streaming pass, milliseconds for 7 MiB) and tops its reservation up to that weight:
     * {@code holding[0]} is what the request holds, and is released when it ends. Null when it may
     * be read; else the refusal: 413 for a body that weighs more than the whole budget (no
     * ordinary object does), 503 when its weight does not fit beside what others hold now.
     */
    private WebhookAnswer weigh(byte[] bytes, long[] holding) {
        if (bytes.length < BodyBudget.DENSE_ENOUGH_TO_COUNT) {
            return null;
        }
        long values = Json.values(bytes);
        long weight = Math.max(bytes.length, values * BodyBudget.BYTES_PER_VALUE);
        if (weight <= Math.max(holding[0], BodyBudget.SMALL)) {
            return null;
        }
        // denser than ordinary JSON and heavier than the whole budget: refused (an ordinary body never is, however
        // large: its weight is its length, and one alone is admitted beyond the budget as before)
        if (values * BodyBudget.BYTES_PER_VALUE > Math.max(parts.budget.capacity(), bytes.length)) {
            return WebhookAnswer.text(413, "The body holds " + values + " JSON values in " + bytes.length
                    + " bytes: read as a tree it would cost about " + (weight * 3 / (1024 * 1024)) + " MiB. At "
                    + BodyBudget.BYTES_PER_VALUE + " bytes a value it weighs more than the body budget ("
                    + parts.budget.capacity() + " bytes, kubeloop.webhook.body-budget); ordinary Kubernetes JSON "
                    + "weighs its length");
        }
        // re-reserved whole: a body alone in the budget is admitted even when it weighs more than the budget
        parts.budget.release(holding[0]);
        holding[0] = 0;
        if (!parts.budget.tryReserve(weight)) {
            return WebhookAnswer.text(503, "Too many large requests at once (" + parts.budget.inUse()
                    + " bytes of bodies in flight by weight, budget " + parts.budget.capacity() + "); retry");
        }
        holding[0] = weight;
        return null;
    }

    private void answer(ChannelHandlerContext ctx, WebhookAnswer answer) {
        boolean answering = state == State.ANSWERING;
        cancelDeadline();
        state = State.CLOSING;
        boolean close = !keepAlive || parts.draining || !ctx.channel().isActive();
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(answer.status()), Unpooled.wrappedBuffer(answer.body()));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, answer.isJson() ? "application/json"
                : "text/plain; charset=utf-8");
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length);
        if (answer.status() == 405) {
            response.headers().set(HttpHeaderNames.ALLOW, "POST");
        }
        if (close) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        Webhook answered = webhook;
        long since = started;
        ctx.writeAndFlush(response).addListener((ChannelFutureListener) written -> {
            if (answered != null) {
                parts.observer.requestFinished(answered, answer.status(), System.nanoTime() - since);
            }
            if (answering) {
                parts.inFlight.end();
            }
            if (!written.isSuccess()) {
                ctx.close();
            } else if (close) {
                closeAfterAnswer(ctx, !answering);
            } else {
                next(ctx);
            }
        });
    }

    /**
     * Closes after an answer. When the request may not have been read whole (refused early,
     * malformed, too slow), closing at once would reset the connection with the client's bytes
     * unread, and a reset can destroy the answer in the client's buffers before it reads it (or
     * fail the write it is still making): the client sees a broken connection, not the 4xx. As
     * Go's server does, end the sending side (TLS close_notify, then the TCP half-close), keep
     * reading and discarding for {@link #LINGER}, then close.
     */
    private void closeAfterAnswer(ChannelHandlerContext ctx, boolean inputMayBeUnread) {
        if (!inputMayBeUnread || !(ctx.channel() instanceof DuplexChannel duplex)) {
            ctx.close();
            return;
        }
        ctx.channel().config().setAutoRead(true);
        ScheduledFuture<?> lingering = ctx.executor().schedule(() -> {
            ctx.close();
        }, LINGER.toNanos(), TimeUnit.NANOSECONDS);
        ctx.channel().closeFuture().addListener(closed -> lingering.cancel(false));
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls == null) {
            duplex.shutdownOutput();
        } else {
            tls.closeOutbound().addListener(sent -> duplex.shutdownOutput());
        }
    }

    /** Ready for the connection's next request. */
    private void next(ChannelHandlerContext ctx) {
        state = State.WAITING;
        begun = false;
        webhook = null;
        refusal = null;
        discarded = 0;
        parts.limit.idle(ctx.channel());
        arm(ctx, parts.idleTimeout);
        ctx.channel().config().setAutoRead(true);
        ctx.read();
    }

    private static WebhookAnswer malformed(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return WebhookAnswer.text(414, "Request line too long");
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return WebhookAnswer.text(431, "Request headers too large");
        }
        if (cause instanceof TooLongFrameException) {
            return WebhookAnswer.text(400, "Request too large");
        }
        return WebhookAnswer.text(400, "Malformed HTTP request");
    }

    private void arm(ChannelHandlerContext ctx, Duration timeout) {
        cancelDeadline();
        deadline = ctx.executor().schedule(() -> expired(ctx), timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void expired(ChannelHandlerContext ctx) {
        deadline = null;
        if (state == State.WAITING && !begun) {
            parts.stats.closedFor(ConnectionEnd.IDLE_TIMEOUT);
            ctx.close();
        } else if (state == State.WAITING || state == State.READING || state == State.DISCARDING) {
            parts.stats.closedFor(ConnectionEnd.REQUEST_TIMEOUT);
            releaseBody();
            keepAlive = false;
            answer(ctx, WebhookAnswer.text(408, "Request not received whole within "
                    + dev.kubeloop.runtime.Setting.format(parts.requestTimeout)));
        }
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    private void releaseReservation() {
        parts.budget.release(reserved);
        reserved = 0;
    }

    private void releaseBody() {
        if (body != null) {
            body.release();
            body = null;
        }
        releaseReservation();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelDeadline();
        releaseBody();
        if (webhook != null && state != State.ANSWERING && state != State.CLOSING) {
            // a request begun and abandoned by its client: it ends here, unanswered
            parts.observer.requestFinished(webhook, 499, System.nanoTime() - started);
            webhook = null;
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("Webhook connection closed: {}", cause.toString()); // a client gone, or TLS it could not speak
        ctx.close();
    }
}
