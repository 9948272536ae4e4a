package dev.kubeloop.webhook;

import dev.kubeloop.runtime.NamedThreadFactory;
import dev.kubeloop.runtime.Tracing;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@link Webhooks} over HTTPS on a port of its own, with Netty (already on an operator's
 * class path through fabric8's Vert.x HTTP client): TLS handshakes and HTTP parsing happen on
 * event loops, without blocking a thread per connection, so a slow or hostile client costs a
 * little memory and a deadline, never a thread. HTTP/1.1 with keep-alive, which is what the API
 * server speaks to webhooks (no ALPN here, so Go's client does not try HTTP/2). The JDK's
 * {@code HttpsServer}, used before, handshakes on its request threads without a deadline: eight
 * clients sending a ClientHello a byte a second stopped it (docs/webhooks.md, "The server").
 *
 * <p>What a client can hold, and for how long: at most {@code maxConnections} connections (at the
 * limit the oldest one not serving a request makes room, {@link ConnectionLimit}); a TLS handshake
 * within {@code handshakeTimeout} of the accept; an idle keep-alive connection
 * {@code idleTimeout}; a request, once begun, {@code requestTimeout} to arrive whole; request
 * line 4 KiB and headers 16 KiB; a body {@value WebhookHttpHandler#MAX_BODY_BYTES} bytes, and the
 * bodies over 64 KiB together {@code bodyBudget} bytes ({@link BodyBudget}). See docs/security.md.
 *
 * <p>Threads: one acceptor {@code kubeloop-webhook-accept} and {@value #IO_THREADS} event loops
 * {@code kubeloop-webhook-io-<n>} (TLS, HTTP, never user code); {@code threads} webhook threads
 * {@code kubeloop-webhook-<n>} run validators, defaulters and converters, with up to
 * {@value #QUEUE} requests waiting for one (beyond: 503, and the API server applies the
 * failurePolicy). All are shut down by {@link #stop}.
 *
 * <p>State ownership: {@code running} (the channel, groups, pool, connections) is set by
 * {@link #start} and cleared by {@link #stop}, both synchronized; {@code live} is volatile for
 * health checks from any thread; {@link WebhookServerStats} are atomics.
 */
public final class WebhookServer {

    static final int QUEUE = 1024;

    static final int IO_THREADS = 2;

    static final int MAX_INITIAL_LINE = 4096;

    static final int MAX_HEADER_BYTES = 16 * 1024;

    private static final Logger log = LoggerFactory.getLogger(WebhookServer.class);

    private final Webhooks webhooks;
    private final ServerTls tls;
    private final InetAddress address;
    private final int port;
    private final int threads;
    private final WebhookObserver observer;
    private final Tracing tracing;
    private final int maxConnections;
    private final Duration handshakeTimeout;
    private final Duration idleTimeout;
    private final Duration requestTimeout;
    private final BodyBudget budget;
    private final WebhookServerStats stats = new WebhookServerStats();

    private Running running;
    private volatile boolean live;
    private volatile int boundPort = -1;

    /** Everything a started server holds, released by {@link #stop}. */
    private record Running(Channel listener, EventLoopGroup acceptor, EventLoopGroup io, ThreadPoolExecutor workers,
            ChannelGroup connections, ServerParts parts) {
    }

    private WebhookServer(Builder builder) {
        this.webhooks = Objects.requireNonNull(builder.webhooks, "webhooks");
        this.tls = Objects.requireNonNull(builder.tls, "tls");
        this.address = builder.address;
        this.port = builder.port;
        this.threads = builder.threads;
        this.observer = builder.observer;
        this.tracing = builder.tracing;
        this.maxConnections = builder.maxConnections;
        this.handshakeTimeout = builder.handshakeTimeout;
        this.idleTimeout = builder.idleTimeout;
        this.requestTimeout = builder.requestTimeout;
        this.budget = new BodyBudget(builder.bodyBudget);
    }

    public static Builder builder(Webhooks webhooks, ServerTls tls) {
        return new Builder(webhooks, tls);
    }

    /**
     * Binds and starts serving.
     *
     * @throws IOException if the address cannot be bound (in use, not an address of this machine)
     */
    public synchronized void start() throws IOException {
        if (running != null) {
            return;
        }
        ThreadPoolExecutor workers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), NamedThreadFactory.numbered("kubeloop-webhook-"));
        stats.waitingFrom(() -> workers.getQueue().size(), () -> oldestWait(workers));
        EventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1,
                NamedThreadFactory.numbered("kubeloop-webhook-accept-"), NioIoHandler.newFactory());
        EventLoopGroup io = new MultiThreadIoEventLoopGroup(IO_THREADS,
                NamedThreadFactory.numbered("kubeloop-webhook-io-"), NioIoHandler.newFactory());
        ChannelGroup connections = new DefaultChannelGroup("kubeloop-webhook", GlobalEventExecutor.INSTANCE);
        ConnectionLimit limit = new ConnectionLimit(maxConnections, stats);
        ServerParts parts = new ServerParts(new WebhookHttpHandler(webhooks), observer, workers, budget, limit, stats,
                new InFlight(), idleTimeout, requestTimeout, tracing);
        ServerBootstrap bootstrap = new ServerBootstrap().group(acceptor, io).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        connections.add(channel);
                        WebhookExchange exchange = new WebhookExchange(parts);
                        channel.pipeline().addLast("limit", limit)
                                .addLast("tls", new TlsOrPlainHttp(tls, handshakeTimeout, stats, limit))
                                .addLast("clock", exchange.requestClock())
                                .addLast("http", new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, 64 * 1024))
                                .addLast("exchange", exchange);
                    }
                });
        ChannelFuture bound = bootstrap.bind(new InetSocketAddress(address, port)).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            shutDown(acceptor, io, workers);
            Throwable cause = bound.cause();
            throw cause instanceof IOException failed ? failed : new IOException(String.valueOf(cause.getMessage()),
                    cause);
        }
        Channel listener = bound.channel();
        running = new Running(listener, acceptor, io, workers, connections, parts);
        boundPort = ((InetSocketAddress) listener.localAddress()).getPort();
        live = true;
        observer.transport(stats);
        observer.serving(webhooks.all());
        log.info("Webhook server listening on https://{}:{} for {} (certificate valid until {})",
                address.getHostAddress(), boundPort, Webhooks.paths(webhooks.all()), tls.notAfter());
    }

    /**
     * Stops accepting connections, closes the idle ones, lets requests in flight be answered for
     * up to {@code grace} (returning as soon as the last one is), then closes everything.
     */
    public synchronized void stop(Duration grace) {
        if (running == null) {
            return;
        }
        Running stopping = running;
        live = false;
        stopping.parts.draining = true;
        stopping.listener.close().syncUninterruptibly();
        boolean drained = false;
        try {
            drained = stopping.parts.inFlight.awaitNone(grace);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!drained) {
            log.warn("Webhook server stopping with {} requests unanswered after {}",
                    stopping.parts.inFlight.count(), grace);
        }
        stopping.connections.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
        shutDown(stopping.acceptor, stopping.io, stopping.workers);
        running = null;
        log.info("Webhook server stopped");
    }

    private static void shutDown(EventLoopGroup acceptor, EventLoopGroup io, ThreadPoolExecutor workers) {
        workers.shutdownNow();
        acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
    }

    private static Duration oldestWait(ThreadPoolExecutor workers) {
        Runnable head = workers.getQueue().peek();
        return head instanceof WaitingRequest waiting ? Duration.ofNanos(System.nanoTime() - waiting.queuedAt())
                : Duration.ZERO;
    }

    BodyBudget budget() {
        return budget;
    }

    /** What the transport is doing: connections, handshakes, waiting requests, closes by reason. */
    public WebhookServerStats stats() {
        return stats;
    }

    public boolean isRunning() {
        return live;
    }

    /** The port it listens on (useful with port 0); -1 before {@link #start}. */
    public int port() {
        return boundPort;
    }

    /** The port it was asked to listen on (0: any free port). */
    public int requestedPort() {
        return port;
    }

    public InetAddress address() {
        return address;
    }

    public ServerTls tls() {
        return tls;
    }

    public Webhooks webhooks() {
        return webhooks;
    }

    public List<String> paths() {
        return Webhooks.paths(webhooks.all());
    }

    /** Builds a {@link WebhookServer}; defaults from {@link WebhookSettings}. Not thread-safe. */
    public static final class Builder {
        private final Webhooks webhooks;
        private final ServerTls tls;
        private InetAddress address;
        private int port = WebhookSettings.PORT.defaultValue();
        private int threads = WebhookSettings.THREADS.defaultValue();
        private WebhookObserver observer = WebhookObserver.none();
        private Tracing tracing = Tracing.OFF;
        private int maxConnections = WebhookSettings.MAX_CONNECTIONS.defaultValue();
        private Duration handshakeTimeout = WebhookSettings.HANDSHAKE_TIMEOUT.defaultValue();
        private Duration idleTimeout = WebhookSettings.IDLE_TIMEOUT.defaultValue();
        private Duration requestTimeout = WebhookSettings.REQUEST_TIMEOUT.defaultValue();
        private long bodyBudget = WebhookSettings.BODY_BUDGET.defaultValue();

        private Builder(Webhooks webhooks, ServerTls tls) {
            this.webhooks = webhooks;
            this.tls = tls;
            try {
                this.address = InetAddress.getByName(WebhookSettings.ADDRESS.defaultValue());
            } catch (IOException e) {
                throw new IllegalStateException("0.0.0.0 is an address", e);
            }
        }

        public Builder address(InetAddress address) {
            this.address = Objects.requireNonNull(address, "address");
            return this;
        }

        public Builder port(int port) {
            this.port = WebhookSettings.PORT.check(port);
            return this;
        }

        public Builder threads(int threads) {
            this.threads = WebhookSettings.THREADS.check(threads);
            return this;
        }

        /** Traces every request while its webhook runs (docs/tracing.md); {@link Tracing#OFF} by default. */
        public Builder tracing(Tracing tracing) {
            this.tracing = Objects.requireNonNull(tracing, "tracing");
            return this;
        }

        public Builder observer(WebhookObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        public Builder maxConnections(int maxConnections) {
            this.maxConnections = WebhookSettings.MAX_CONNECTIONS.check(maxConnections);
            return this;
        }

        public Builder handshakeTimeout(Duration handshakeTimeout) {
            this.handshakeTimeout = WebhookSettings.HANDSHAKE_TIMEOUT.check(handshakeTimeout);
            return this;
        }

        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = WebhookSettings.IDLE_TIMEOUT.check(idleTimeout);
            return this;
        }

        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = WebhookSettings.REQUEST_TIMEOUT.check(requestTimeout);
            return this;
        }

        /** Bytes of request bodies over 64 KiB held at once, from their first byte to their parse. */
        public Builder bodyBudget(long bodyBudget) {
            this.bodyBudget = WebhookSettings.BODY_BUDGET.check(bodyBudget);
            return this;
        }

        public WebhookServer build() {
            return new WebhookServer(this);
        }
    }
}
