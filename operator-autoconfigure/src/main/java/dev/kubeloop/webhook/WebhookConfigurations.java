package dev.kubeloop.webhook;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The registrations of a webhook server that the API server reaches at a URL rather than through a
 * Service, as objects to create: a ValidatingWebhookConfiguration for the validators, a
 * MutatingWebhookConfiguration for the defaulters (both named {@link Target#name}) and the
 * {@code spec.conversion} patch of each CRD whose kind has a converter. Shared by the development
 * registration ({@code kubeloop.webhook.dev-registration.enabled}) and the test kit's
 * {@code ClusterWebhooks}; the Helm chart registers the same {@link WebhookDescription}s for a Service
 * (from the file {@code kubeloop:manifests} writes). Building only: the
 * callers apply and remove them with their client. Immutable.
 */
public final class WebhookConfigurations {

    /** The patch that turns a CRD's conversion back to {@code None}, as it is without a converter. */
    public static final String NO_CONVERSION_PATCH = "{\"spec\":{\"conversion\":{\"strategy\":\"None\",\"webhook\":null}}}";

    /**
     * Where and how the API server calls the webhooks.
     *
     * @param name the configurations' name
     * @param labels labels of the configurations (who made them)
     * @param baseUrl {@code https://host:port} of the webhook server
     * @param caBundle base64 of the PEM CA that signed the server's certificate
     * @param namespaceLabels the namespaces the admission webhooks apply to, by their labels; empty: all
     * @param failurePolicy {@code Fail} or {@code Ignore}
     * @param timeoutSeconds how long the API server waits for an answer (1 to 30)
     */
    public record Target(String name, Map<String, String> labels, String baseUrl, String caBundle,
            Map<String, String> namespaceLabels, String failurePolicy, int timeoutSeconds) {

        public Target {
            Objects.requireNonNull(name, "name");
            labels = Map.copyOf(labels);
            Objects.requireNonNull(baseUrl, "baseUrl");
            Objects.requireNonNull(caBundle, "caBundle");
            namespaceLabels = Map.copyOf(namespaceLabels);
            Objects.requireNonNull(failurePolicy, "failurePolicy");
        }
    }

    /** A CRD's conversion through the webhook: its name and the JSON merge patch that sets it. */
    public record Conversion(String crd, String patch) {
    }

    private final ValidatingWebhookConfiguration validating;
    private final MutatingWebhookConfiguration mutating;
    private final List<Conversion> conversions;

    private WebhookConfigurations(ValidatingWebhookConfiguration validating, MutatingWebhookConfiguration mutating,
            List<Conversion> conversions) {
        this.validating = validating;
        this.mutating = mutating;
        this.conversions = List.copyOf(conversions);
    }

    /** The registrations of {@code webhooks} served at {@code target}. */
    public static WebhookConfigurations of(Webhooks webhooks, Target target) {
        List<io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook> validating = new ArrayList<>();
        List<io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook> mutating = new ArrayList<>();
        List<Conversion> conversions = new ArrayList<>();
        LabelSelector namespaces = target.namespaceLabels().isEmpty() ? null
                : new LabelSelectorBuilder().addToMatchLabels(target.namespaceLabels()).build();
        for (WebhookDescription webhook : WebhookDescription.of(webhooks)) {
            String url = target.baseUrl() + webhook.path();
            WebhookClientConfig clientConfig = new WebhookClientConfigBuilder().withUrl(url)
                    .withCaBundle(target.caBundle()).build();
            switch (webhook.type()) {
                case VALIDATING -> validating.add(new ValidatingWebhookBuilder().withName(webhook.name())
                        .withClientConfig(clientConfig).withRules(rule(webhook))
                        .withFailurePolicy(target.failurePolicy()).withTimeoutSeconds(target.timeoutSeconds())
                        .withSideEffects("None").withAdmissionReviewVersions("v1").withMatchPolicy("Equivalent")
                        .withNamespaceSelector(namespaces).build());
                case MUTATING -> mutating.add(new MutatingWebhookBuilder().withName(webhook.name())
                        .withClientConfig(clientConfig).withRules(rule(webhook))
                        .withFailurePolicy(target.failurePolicy()).withTimeoutSeconds(target.timeoutSeconds())
                        .withSideEffects("None").withAdmissionReviewVersions("v1").withMatchPolicy("Equivalent")
                        .withReinvocationPolicy("IfNeeded").withNamespaceSelector(namespaces).build());
                case CONVERSION -> conversions.add(new Conversion(webhook.name(), "{\"spec\":{\"conversion\":"
                        + "{\"strategy\":\"Webhook\",\"webhook\":{\"conversionReviewVersions\":[\"v1\"],"
                        + "\"clientConfig\":{\"url\":\"" + url + "\",\"caBundle\":\"" + target.caBundle() + "\"}}}}}"));
            }
        }
        return new WebhookConfigurations(
                validating.isEmpty() ? null : new ValidatingWebhookConfigurationBuilder().withNewMetadata()
                        .withName(target.name()).withLabels(target.labels()).endMetadata().withWebhooks(validating)
                        .build(),
                mutating.isEmpty() ? null : new MutatingWebhookConfigurationBuilder().withNewMetadata()
                        .withName(target.name()).withLabels(target.labels()).endMetadata().withWebhooks(mutating)
                        .build(),
                conversions);
    }

    /** The validators' configuration, if there are validators. */
    public Optional<ValidatingWebhookConfiguration> validating() {
        return Optional.ofNullable(validating);
    }

    /** The defaulters' configuration, if there are defaulters. */
    public Optional<MutatingWebhookConfiguration> mutating() {
        return Optional.ofNullable(mutating);
    }

    /** The CRDs to convert through the webhook server. */
    public List<Conversion> conversions() {
        return conversions;
    }

    private static RuleWithOperations rule(WebhookDescription webhook) {
        return new RuleWithOperationsBuilder().withApiGroups(webhook.resource().group())
                .withApiVersions(webhook.resource().version()).withResources(webhook.plural())
                .withOperations(webhook.operations()).withScope(webhook.scope()).build();
    }
}
