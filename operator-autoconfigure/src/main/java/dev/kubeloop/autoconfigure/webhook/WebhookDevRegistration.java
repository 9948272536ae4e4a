package dev.kubeloop.autoconfigure.webhook;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.webhook.ThrowawayCertificates;
import dev.kubeloop.webhook.WebhookConfigurations;
import dev.kubeloop.webhook.WebhookServer;
import dev.kubeloop.webhook.WebhookSettings;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The development loop's registration ({@code kubeloop.webhook.dev-registration.enabled=true}):
 * once the webhook server listens, points the cluster's API server at it, with a
 * ValidatingWebhookConfiguration, a MutatingWebhookConfiguration and the conversion of the CRDs
 * with converters ({@link WebhookConfigurations}, as the kit registers them), {@code clientConfig.url}
 * to {@code https://<host>:<port>} and the run's throwaway CA; removes all of it when the
 * application stops, before the server does.
 *
 * <p>The configurations are named for the application and the machine
 * ({@link DevRegistrationName}), so a run that was killed before it could remove them has its
 * stale registration replaced by the next run on the same machine. Their failure policy is
 * {@code Ignore}: a registration left behind by a killed run must not block writes to the cluster
 * until the next run (the conversion of a CRD has no such policy: the next start or
 * {@code kubectl patch} repairs it, see docs/webhooks.md).
 *
 * <p>Thread-safety: Spring calls start and stop from one thread; {@code registered} is volatile for
 * {@link #isRunning}.
 */
final class WebhookDevRegistration implements SmartLifecycle {

    /** Above the server's phase: registered after it listens, removed before it stops. */
    static final int PHASE = WebhookServerLifecycle.PHASE + 1;

    /** How long the throwaway certificate is valid: longer than any development session. */
    static final Duration VALIDITY = Duration.ofDays(30);

    private static final Logger log = LoggerFactory.getLogger(WebhookDevRegistration.class);
    private static final int TIMEOUT_SECONDS = 10;

    private final KubernetesClient client;
    private final Webhooks webhooks;
    private final WebhookServer server;
    private final ThrowawayCertificates certificates;
    private final String host;
    private final DevRegistrationName name;
    private volatile WebhookConfigurations registered;

    WebhookDevRegistration(KubernetesClient client, Webhooks webhooks, WebhookServer server,
            ThrowawayCertificates certificates, String host, DevRegistrationName name) {
        this.client = client;
        this.webhooks = webhooks;
        this.server = server;
        this.certificates = certificates;
        this.host = host;
        this.name = name;
    }

    /** The certificate the server presents: for {@code host}, and for loopback. */
    static ThrowawayCertificates certificates(String host) {
        return ThrowawayCertificates.create(List.of(host, "127.0.0.1", "localhost"), VALIDITY);
    }

    @Override
    public void start() {
        String baseUrl = "https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.port();
        WebhookConfigurations configurations = WebhookConfigurations.of(webhooks, new WebhookConfigurations.Target(
                name.value(), Map.of(DevRegistrationName.LABEL, name.machineLabel()), baseUrl,
                certificates.caBundle(), Map.of(), "Ignore", TIMEOUT_SECONDS));
        try {
            configurations.validating().ifPresent(configuration -> client.admissionRegistration().v1()
                    .validatingWebhookConfigurations().resource(configuration).createOr(existing -> existing.update()));
            configurations.mutating().ifPresent(configuration -> client.admissionRegistration().v1()
                    .mutatingWebhookConfigurations().resource(configuration).createOr(existing -> existing.update()));
            for (WebhookConfigurations.Conversion conversion : configurations.conversions()) {
                client.apiextensions().v1().customResourceDefinitions().withName(conversion.crd())
                        .patch(PatchContext.of(PatchType.JSON_MERGE), conversion.patch());
            }
        } catch (KubernetesClientException e) {
            throw new KubeloopConfigurationException("The development registration of the webhooks ("
                    + WebhookSettings.DEV_REGISTRATION.property() + ") failed: " + e.getMessage() + ".",
                    "Install the CRDs first and let the kubeconfig's user create and delete validating and mutating "
                            + "webhook configurations and patch CRDs, or set "
                            + WebhookSettings.DEV_REGISTRATION.property() + "=false.", e);
        }
        registered = configurations;
        log.warn("Development registration: the API server calls this process at {} for {} (configurations '{}', "
                + "throwaway CA); removed when the application stops", baseUrl, server.paths(), name.value());
    }

    @Override
    public void stop() {
        WebhookConfigurations configurations = registered;
        if (configurations == null) {
            return;
        }
        registered = null;
        try {
            client.admissionRegistration().v1().validatingWebhookConfigurations().withName(name.value()).delete();
            client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(name.value()).delete();
            for (WebhookConfigurations.Conversion conversion : configurations.conversions()) {
                client.apiextensions().v1().customResourceDefinitions().withName(conversion.crd())
                        .patch(PatchContext.of(PatchType.JSON_MERGE), WebhookConfigurations.NO_CONVERSION_PATCH);
            }
            log.info("Development registration '{}' removed", name.value());
        } catch (KubernetesClientException e) {
            // the next start on this machine replaces what is left
            log.warn("Development registration '{}' could not be removed: {}; the next run replaces it, or delete "
                    + "the webhook configurations of that name", name.value(), e.getMessage());
        }
    }

    @Override
    public boolean isRunning() {
        return registered != null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
