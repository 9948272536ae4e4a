package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.webhook.WebhookSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The webhook server: admission and conversion webhooks over HTTPS on a port of their own,
 * with the certificate of a Spring Boot SSL bundle ({@code kubeloop.webhook.*}). See docs/webhooks.md.
 * Bound when the application has a validator, defaulter or converter. A mutable JavaBean bound once
 * at startup; read it, do not change it.
 */
@ConfigurationProperties("kubeloop.webhook")
public class WebhookProperties {

    /**
     * Whether to serve the application's validators, defaulters and converters; the server starts
     * only when there is at least one.
     */
    private boolean enabled = WebhookSettings.ENABLED.defaultValue();

    /** HTTPS port of the webhook server (controller-runtime's default 9443); 0 takes any free port. */
    private int port = WebhookSettings.PORT.defaultValue();

    /** Address the webhook server listens on; 0.0.0.0 is every interface. */
    private String address = WebhookSettings.ADDRESS.defaultValue();

    /**
     * Name of the SSL bundle with the serving certificate and key, e.g. PEM files mounted from a
     * Secret: spring.ssl.bundle.pem.<name>.keystore.certificate and .private-key, with
     * reload-on-update=true so that a renewed certificate is served without a restart.
     */
    private String sslBundle = WebhookSettings.SSL_BUNDLE.defaultValue();

    /**
     * Threads running the validators, defaulters and converters; TLS and HTTP run on the
     * server's own event loops.
     */
    private int threads = WebhookSettings.THREADS.defaultValue();

    /**
     * Connections the webhook server holds open at once; at the limit the oldest connection not
     * serving a request is closed to make room for the new one.
     */
    private int maxConnections = WebhookSettings.MAX_CONNECTIONS.defaultValue();

    /** How long a connection may take from its accept to a completed TLS handshake. */
    private Duration handshakeTimeout = WebhookSettings.HANDSHAKE_TIMEOUT.defaultValue();

    /** How long a keep-alive connection may wait for its next request before it is closed. */
    private Duration idleTimeout = WebhookSettings.IDLE_TIMEOUT.defaultValue();

    /** How long a request may take to arrive whole once it has begun; then 408 and closed. */
    private Duration requestTimeout = WebhookSettings.REQUEST_TIMEOUT.defaultValue();

    /**
     * Bytes of request bodies over 64 KiB held at once, from their first byte to the end of
     * their parse; a large body that does not fit is answered 503 without being read. Parsing
     * costs a multiple of the body: see docs/webhooks.md before raising it.
     */
    private long bodyBudget = WebhookSettings.BODY_BUDGET.defaultValue();

    /** Development only: registering the webhooks with the cluster, served by this process. */
    private final DevRegistration devRegistration = new DevRegistration();

    public DevRegistration getDevRegistration() {
        return devRegistration;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
    }

    public String getSslBundle() {
        return sslBundle;
    }

    public void setSslBundle(String sslBundle) {
        this.sslBundle = sslBundle;
    }

    public int getThreads() {
        return threads;
    }

    public void setThreads(int threads) {
        this.threads = threads;
    }

    public int getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    public Duration getHandshakeTimeout() {
        return handshakeTimeout;
    }

    public void setHandshakeTimeout(Duration handshakeTimeout) {
        this.handshakeTimeout = handshakeTimeout;
    }

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public long getBodyBudget() {
        return bodyBudget;
    }

    public void setBodyBudget(long bodyBudget) {
        this.bodyBudget = bodyBudget;
    }

    /**
     * The development loop ({@code kubeloop.webhook.dev-registration.*}): registrations that point
     * the API server at this process, with a CA made for the run. Never in a cluster.
     */
    public static class DevRegistration {

        /**
         * Whether to register the webhooks with the cluster this application talks to, served by this
         * process with a throwaway CA (clientConfig.url), and remove them at stop. For development
         * against a cluster (spring-boot:run); start-up fails inside a cluster, and with
         * kubeloop.webhook.enabled=false (generated projects have the server follow this switch).
         */
        private boolean enabled = WebhookSettings.DEV_REGISTRATION.defaultValue();

        /**
         * Host in the registrations' URL: this machine as the API server sees it (127.0.0.1 for an
         * API server on this machine; e.g. host.docker.internal or the bridge's address for kind).
         */
        private String host = WebhookSettings.DEV_REGISTRATION_HOST.defaultValue();

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getHost() {
            return host;
        }

        public void setHost(String host) {
            this.host = host;
        }
    }
}
