package dev.kubeloop.webhook;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.kubeloop.runtime.NamedThreadFactory;
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
 * Serves {@link Webhooks} over HTTPS on a port of its own, with the JDK's
 * {@code com.sun.net.httpserver.HttpsServer}: no dependency, no web framework (the operator's
 * Tomcat or Netty serves the application and management ports and knows nothing of this one), and
 * enough for the API server's traffic, which is HTTP/1.1 with keep-alive here (the JDK server has
 * no HTTP/2, so Go's client negotiates 1.1). See {@code docs/performance.md} for its latency under
 * load.
 *
 * <p>Threads: the JDK's dispatcher thread accepts connections; {@code threads} request threads
 * ({@code kubeloop-webhook-<n>}) do TLS and the webhooks. Up to {@value #QUEUE} requests wait for a
 * thread; beyond that the JDK server closes the connection, and the API server applies the
 * webhook's failurePolicy. The pool is shut down by {@link #stop}.
 *
 * <p>State ownership: {@code server} and {@code executor} are set by {@link #start} and cleared by
 * {@link #stop}, both synchronized; {@code running} is volatile for health checks from any thread.
 */
public final class WebhookServer {

    static final int QUEUE = 1024;

    private static final Logger log = LoggerFactory.getLogger(WebhookServer.class);

    private final Webhooks webhooks;
    private final ServerTls tls;
    private final InetAddress address;
    private final int port;
    private final int threads;
    private final WebhookObserver observer;

    private HttpsServer server;
    private ThreadPoolExecutor executor;
    private volatile boolean running;
    private volatile int boundPort = -1;

    private WebhookServer(Builder builder) {
        this.webhooks = Objects.requireNonNull(builder.webhooks, "webhooks");
        this.tls = Objects.requireNonNull(builder.tls, "tls");
        this.address = builder.address;
        this.port = builder.port;
        this.threads = builder.threads;
        this.observer = builder.observer;
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
        if (server != null) {
            return;
        }
        HttpsServer https = HttpsServer.create(new InetSocketAddress(address, port), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(tls.context()) {
            @Override
            public void configure(HttpsParameters parameters) {
                parameters.setSSLParameters(tls.parameters());
            }
        });
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), NamedThreadFactory.numbered("kubeloop-webhook-"));
        https.setExecutor(pool);
        https.createContext("/", new WebhookHttpHandler(webhooks, observer));
        https.start();
        server = https;
        executor = pool;
        boundPort = https.getAddress().getPort();
        running = true;
        observer.serving(webhooks.all());
        log.info("Webhook server listening on https://{}:{} for {} (certificate valid until {})",
                address.getHostAddress(), boundPort, Webhooks.paths(webhooks.all()), tls.notAfter());
    }

    /**
     * Stops accepting connections, lets requests in flight finish for up to {@code grace}, then
     * closes everything.
     */
    public synchronized void stop(Duration grace) {
        if (server == null) {
            return;
        }
        running = false;
        server.stop((int) Math.max(0, Math.min(Integer.MAX_VALUE, grace.toSeconds())));
        executor.shutdown();
        try {
            if (!executor.awaitTermination(grace.toMillis() + 1000, TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
        server = null;
        executor = null;
        log.info("Webhook server stopped");
    }

    public boolean isRunning() {
        return running;
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

        public Builder observer(WebhookObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        public WebhookServer build() {
            return new WebhookServer(this);
        }
    }
}
