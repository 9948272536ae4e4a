package dev.kubeloop.test.webhook;

import dev.kubeloop.webhook.WebhookConfigurations;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Registers a running webhook server with a real API server, as the Helm chart does in a cluster
 * but with {@code clientConfig.url} (the server is not behind a Service) and the test CA
 * ({@link WebhookConfigurations} builds them, as for {@code kubeloop.webhook.dev-registration}): a
 * ValidatingWebhookConfiguration and a MutatingWebhookConfiguration for the validators and
 * defaulters, confined to one namespace by a label the registration puts on it, and
 * {@code spec.conversion} of the CRDs whose kinds have converters. {@link #close()} removes all of
 * it and sets the CRDs' conversion back to {@code None}.
 *
 * <p>The API server must reach {@code baseUrl}: with {@code https://127.0.0.1:<port>} that is an
 * API server on this machine ({@code scripts/local-apiserver.sh}). It picks new configurations up
 * within about a second; wait for an effect you expect (a denial) before relying on them.
 */
public final class ClusterWebhooks implements AutoCloseable {

    /** The label that selects the namespace the configurations apply to. */
    public static final String NAMESPACE_LABEL = "webhooks.kubeloop.dev/test";

    private final KubernetesClient client;
    private final String name;
    private final List<String> convertedCrds;

    private ClusterWebhooks(KubernetesClient client, String name, List<String> convertedCrds) {
        this.client = client;
        this.name = name;
        this.convertedCrds = convertedCrds;
    }

    /**
     * How the API server calls the webhooks.
     *
     * @param failurePolicy {@code Fail} or {@code Ignore}: what the API server does when a webhook cannot
     *     be called or does not answer in time
     * @param timeoutSeconds how long the API server waits for an answer (1 to 30)
     */
    public record Options(String failurePolicy, int timeoutSeconds) {

        /** The chart's defaults: {@code Fail}, 10 s. */
        public static Options defaults() {
            return new Options("Fail", 10);
        }
    }

    /**
     * Registers {@code webhooks}, served at {@code baseUrl} with a certificate signed by the CA of
     * {@code caBundle}, for objects in {@code namespace}.
     */
    public static ClusterWebhooks register(KubernetesClient client, Webhooks webhooks, String baseUrl,
            String caBundle, String namespace, Options options) {
        Objects.requireNonNull(options, "options");
        String name = "kubeloop-test-" + namespace;
        client.namespaces().withName(namespace).edit(ns -> {
            ns.getMetadata().getLabels().put(NAMESPACE_LABEL, namespace);
            return ns;
        });
        WebhookConfigurations configurations = WebhookConfigurations.of(webhooks, new WebhookConfigurations.Target(
                name, Map.of(), baseUrl, caBundle, Map.of(NAMESPACE_LABEL, namespace), options.failurePolicy(),
                options.timeoutSeconds()));
        List<String> crds = new ArrayList<>();
        for (WebhookConfigurations.Conversion conversion : configurations.conversions()) {
            client.apiextensions().v1().customResourceDefinitions().withName(conversion.crd())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), conversion.patch());
            crds.add(conversion.crd());
        }
        ClusterWebhooks registered = new ClusterWebhooks(client, name, crds);
        configurations.validating().ifPresent(configuration -> client.admissionRegistration().v1()
                .validatingWebhookConfigurations().resource(configuration).createOr(existing -> existing.update()));
        configurations.mutating().ifPresent(configuration -> client.admissionRegistration().v1()
                .mutatingWebhookConfigurations().resource(configuration).createOr(existing -> existing.update()));
        return registered;
    }

    /** The configurations' name: {@code kubeloop-test-<namespace>}. */
    public String name() {
        return name;
    }

    /** Removes the configurations and sets the converted CRDs back to {@code strategy: None}. */
    @Override
    public void close() {
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName(name).delete();
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(name).delete();
        for (String crd : convertedCrds) {
            client.apiextensions().v1().customResourceDefinitions().withName(crd).patch(
                    PatchContext.of(PatchType.JSON_MERGE), WebhookConfigurations.NO_CONVERSION_PATCH);
        }
    }
}
