package dev.kubeloop.webhook;

import dev.kubeloop.runtime.Setting;
import dev.kubeloop.runtime.Settings;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The catalog of the webhook server's settings ({@code kubeloop.webhook.*}), their one definition:
 * {@code WebhookProperties} starts from these defaults, the failure analyzers quote what they
 * accept, and {@code SettingsDocumentationTest} ties the IDE metadata and
 * {@code docs/configuration.md} to them. Defaults are controller-runtime's where it has one (port
 * 9443). Stateless.
 */
public final class WebhookSettings {

    /** Whether the server starts when the application has validators, defaulters or converters. */
    public static final Setting<Boolean> ENABLED = Setting.any("webhook.enabled", true, "true or false");

    /** The HTTPS port, apart from the application's and the management port. */
    public static final Setting<Integer> PORT = Setting.of("webhook.port", 9443,
            "a port number from 0 to 65535 (0: any free port)", port -> port >= 0 && port <= 65535);

    // before ADDRESS, which uses it while the class initializes
    private static final Pattern HOST = Pattern.compile(
            "[0-9a-fA-F:.%]+|[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?)*");

    /** The address to listen on: checked by its form here, resolved at start-up. */
    public static final Setting<String> ADDRESS = Setting.of("webhook.address", "0.0.0.0",
            "an IP address or host name of this machine, such as 0.0.0.0 or 127.0.0.1",
            address -> HOST.matcher(address.trim()).matches());

    /** The Spring Boot SSL bundle with the serving certificate and key. */
    public static final Setting<String> SSL_BUNDLE = Setting.of("webhook.ssl-bundle", "webhook",
            "the name of an SSL bundle (spring.ssl.bundle.pem.<name>.*)", name -> !name.isBlank());

    /** Threads that run the validators, defaulters and converters (TLS and HTTP run on the server's event loops). */
    public static final Setting<Integer> THREADS = Setting.of("webhook.threads", 8, "a whole number of 1 or more",
            threads -> threads >= 1);

    /**
     * Connections held open at once; at the limit the oldest not serving a request is closed to
     * make room. Each costs a few tens of KiB (TLS buffers); the API server opens one per request
     * it has in flight to this pod.
     */
    public static final Setting<Integer> MAX_CONNECTIONS = Setting.of("webhook.max-connections", 512,
            "a whole number of 1 or more", connections -> connections >= 1);

    /** How long a connection may take from its accept to a completed TLS handshake. */
    public static final Setting<Duration> HANDSHAKE_TIMEOUT = Setting.of("webhook.handshake-timeout",
            Duration.ofSeconds(10), "a positive duration such as 10s", Settings::positive);

    /** How long a keep-alive connection may wait for its next request (Go's client keeps idle ones 90 s). */
    public static final Setting<Duration> IDLE_TIMEOUT = Setting.of("webhook.idle-timeout", Duration.ofSeconds(30),
            "a positive duration such as 30s", Settings::positive);

    /**
     * How long a request may take to arrive whole once its first byte has (the API server sends
     * one at once; its own timeout is at most 30 s).
     */
    public static final Setting<Duration> REQUEST_TIMEOUT = Setting.of("webhook.request-timeout",
            Duration.ofSeconds(10), "a positive duration such as 10s", Settings::positive);

    /**
     * Bytes of request bodies over 64 KiB held at once, from their first byte to the end of their
     * parse; a large body that does not fit is answered 503 without being read into memory.
     */
    public static final Setting<Long> BODY_BUDGET = Setting.of("webhook.body-budget", 8L * 1024 * 1024,
            "a number of bytes of 65536 or more", bytes -> bytes >= 64 * 1024);

    /**
     * Development only: register the webhooks with the cluster the application talks to, served by
     * this process with a throwaway CA, and remove them at stop. Refused inside a cluster, and with
     * {@link #ENABLED} false.
     */
    public static final Setting<Boolean> DEV_REGISTRATION = Setting.any("webhook.dev-registration.enabled", false,
            "true or false");

    /** The host the API server calls for the development registration: this machine as the API server sees it. */
    public static final Setting<String> DEV_REGISTRATION_HOST = Setting.of("webhook.dev-registration.host",
            "127.0.0.1", "an IP address or DNS name by which the API server reaches this machine",
            host -> HOST.matcher(host.trim()).matches());

    private WebhookSettings() {
    }

    /** Every webhook setting. */
    public static List<Setting<?>> all() {
        return List.of(ENABLED, PORT, ADDRESS, SSL_BUNDLE, THREADS, MAX_CONNECTIONS, HANDSHAKE_TIMEOUT, IDLE_TIMEOUT,
                REQUEST_TIMEOUT, BODY_BUDGET, DEV_REGISTRATION, DEV_REGISTRATION_HOST);
    }
}
