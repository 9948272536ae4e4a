package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.webhook.ServerTls;
import dev.kubeloop.webhook.ThrowawayCertificates;
import dev.kubeloop.webhook.WebhookObserver;
import dev.kubeloop.webhook.WebhookServer;
import dev.kubeloop.webhook.WebhookSettings;
import dev.kubeloop.webhook.Webhooks;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.ssl.SslBundles;

/**
 * Builds the {@link WebhookServer} from {@code kubeloop.webhook.*}, checking each value against
 * its setting (the failure names the property and what it accepts). Stateless.
 */
final class WebhookServerFactory {

    private WebhookServerFactory() {
    }

    /**
     * The server, serving {@code devCertificates} when the development registration is on (null:
     * the SSL bundle's certificate).
     */
    static WebhookServer create(Webhooks webhooks, WebhookProperties properties, SslBundles bundles,
            ThrowawayCertificates devCertificates, List<WebhookObserver> observers, Tracing tracing) {
        int port = WebhookSettings.PORT.check(properties.getPort());
        int threads = WebhookSettings.THREADS.check(properties.getThreads());
        // every value checked before the SSL bundle is looked up, so a wrong one is named first
        int maxConnections = WebhookSettings.MAX_CONNECTIONS.check(properties.getMaxConnections());
        Duration handshakeTimeout = WebhookSettings.HANDSHAKE_TIMEOUT.check(properties.getHandshakeTimeout());
        Duration idleTimeout = WebhookSettings.IDLE_TIMEOUT.check(properties.getIdleTimeout());
        Duration requestTimeout = WebhookSettings.REQUEST_TIMEOUT.check(properties.getRequestTimeout());
        long bodyBudget = WebhookSettings.BODY_BUDGET.check(properties.getBodyBudget());
        String bundle = WebhookSettings.SSL_BUNDLE.check(properties.getSslBundle());
        WebhookSettings.DEV_REGISTRATION_HOST.check(properties.getDevRegistration().getHost());
        InetAddress address = address(properties.getAddress());
        ServerTls tls = devCertificates != null ? devCertificates.serverTls() : SslBundleTls.watched(bundles, bundle);
        return WebhookServer.builder(webhooks, tls).address(address).port(port).threads(threads)
                .maxConnections(maxConnections).handshakeTimeout(handshakeTimeout).idleTimeout(idleTimeout)
                .requestTimeout(requestTimeout).bodyBudget(bodyBudget)
                .observer(all(observers)).tracing(tracing).build();
    }

    private static InetAddress address(String address) {
        String property = WebhookSettings.ADDRESS.property();
        WebhookSettings.ADDRESS.check(address == null ? null : address);
        try {
            return InetAddress.getByName(address.trim());
        } catch (UnknownHostException e) {
            throw new KubeloopConfigurationException("Property " + property + " has an invalid value '" + address
                    + "': it must be " + WebhookSettings.ADDRESS.allowed() + ".", "Set " + property + " to "
                            + WebhookSettings.ADDRESS.allowed() + ", or remove it to use the default ("
                            + WebhookSettings.ADDRESS.defaultValue() + ").", e);
        }
    }

    private static WebhookObserver all(List<WebhookObserver> observers) {
        if (observers.size() == 1) {
            return observers.get(0);
        }
        return new WebhookObserver() {
            @Override
            public void transport(dev.kubeloop.webhook.WebhookServerStats stats) {
                observers.forEach(observer -> observer.transport(stats));
            }

            @Override
            public void serving(List<dev.kubeloop.webhook.Webhook> webhooks) {
                observers.forEach(observer -> observer.serving(webhooks));
            }

            @Override
            public void requestStarted(dev.kubeloop.webhook.Webhook webhook) {
                observers.forEach(observer -> observer.requestStarted(webhook));
            }

            @Override
            public void requestFinished(dev.kubeloop.webhook.Webhook webhook, int status, long nanos) {
                observers.forEach(observer -> observer.requestFinished(webhook, status, nanos));
            }

            @Override
            public void userCodeFailed(dev.kubeloop.webhook.Webhook webhook, Throwable failure) {
                observers.forEach(observer -> observer.userCodeFailed(webhook, failure));
            }
        };
    }
}
