package dev.kubeloop.webhook;

import dev.kubeloop.runtime.Setting;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The catalog of the webhook server's settings ({@code kubeloop.webhook.*}), their one definition:
 * {@code KubeloopProperties} starts from these defaults, the failure analyzers quote what they
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

    /** Threads that handle requests (TLS handshakes included). */
    public static final Setting<Integer> THREADS = Setting.of("webhook.threads", 8, "a whole number of 1 or more",
            threads -> threads >= 1);

    private WebhookSettings() {
    }

    /** Every webhook setting. */
    public static List<Setting<?>> settings() {
        return List.of(ENABLED, PORT, ADDRESS, SSL_BUNDLE, THREADS);
    }
}
