package dev.kubeloop.test.webhook;

import dev.kubeloop.webhook.ResourceType;
import dev.kubeloop.webhook.Webhook;
import dev.kubeloop.webhook.Webhooks;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Registers a running webhook server with a real API server, as the Helm chart does in a cluster
 * but with {@code clientConfig.url} (the server is not behind a Service) and the test CA: a
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
        List<ValidatingWebhook> validating = new ArrayList<>();
        List<MutatingWebhook> mutating = new ArrayList<>();
        List<String> crds = new ArrayList<>();
        for (Webhook webhook : webhooks.all()) {
            ResourceType type = webhook.resource();
            WebhookClientConfig clientConfig = new WebhookClientConfigBuilder().withUrl(baseUrl + webhook.path())
                    .withCaBundle(caBundle).build();
            switch (webhook.type()) {
                case VALIDATING -> validating.add(new ValidatingWebhookBuilder().withName(webhookName("validate", type))
                        .withClientConfig(clientConfig).withRules(rule(type, "CREATE", "UPDATE", "DELETE"))
                        .withFailurePolicy(options.failurePolicy()).withTimeoutSeconds(options.timeoutSeconds())
                        .withSideEffects("None").withAdmissionReviewVersions("v1").withMatchPolicy("Equivalent")
                        .withNamespaceSelector(selector(namespace)).build());
                case MUTATING -> mutating.add(new MutatingWebhookBuilder().withName(webhookName("mutate", type))
                        .withClientConfig(clientConfig).withRules(rule(type, "CREATE", "UPDATE"))
                        .withFailurePolicy(options.failurePolicy()).withTimeoutSeconds(options.timeoutSeconds())
                        .withSideEffects("None").withAdmissionReviewVersions("v1").withMatchPolicy("Equivalent")
                        .withReinvocationPolicy("IfNeeded").withNamespaceSelector(selector(namespace)).build());
                case CONVERSION -> {
                    String crd = HasMetadata.getPlural(type.javaType()) + "." + type.group();
                    client.apiextensions().v1().customResourceDefinitions().withName(crd).patch(
                            PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"conversion\":{\"strategy\":"
                                    + "\"Webhook\",\"webhook\":{\"conversionReviewVersions\":[\"v1\"],\"clientConfig\":"
                                    + "{\"url\":\"" + baseUrl + webhook.path() + "\",\"caBundle\":\"" + caBundle
                                    + "\"}}}}}");
                    crds.add(crd);
                }
            }
        }
        ClusterWebhooks registered = new ClusterWebhooks(client, name, crds);
        if (!validating.isEmpty()) {
            ValidatingWebhookConfiguration configuration = new ValidatingWebhookConfigurationBuilder()
                    .withNewMetadata().withName(name).endMetadata().withWebhooks(validating).build();
            client.admissionRegistration().v1().validatingWebhookConfigurations().resource(configuration)
                    .createOr(existing -> existing.update());
        }
        if (!mutating.isEmpty()) {
            MutatingWebhookConfiguration configuration = new MutatingWebhookConfigurationBuilder()
                    .withNewMetadata().withName(name).endMetadata().withWebhooks(mutating).build();
            client.admissionRegistration().v1().mutatingWebhookConfigurations().resource(configuration)
                    .createOr(existing -> existing.update());
        }
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
                    PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"conversion\":{\"strategy\":\"None\",\"webhook\":null}}}");
        }
    }

    private static String webhookName(String prefix, ResourceType type) {
        return prefix + "." + type.kind().toLowerCase(Locale.ROOT) + "." + (type.group().isEmpty() ? "core.k8s.io"
                : type.group());
    }

    private static RuleWithOperations rule(ResourceType type, String... operations) {
        return new RuleWithOperationsBuilder().withApiGroups(type.group()).withApiVersions(type.version())
                .withResources(HasMetadata.getPlural(type.javaType())).withOperations(operations).build();
    }

    private static io.fabric8.kubernetes.api.model.LabelSelector selector(String namespace) {
        return new LabelSelectorBuilder().addToMatchLabels(NAMESPACE_LABEL, namespace).build();
    }

}
