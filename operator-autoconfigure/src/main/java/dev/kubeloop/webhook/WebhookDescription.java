package dev.kubeloop.webhook;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One webhook as the API server registers it, whoever registers it: the Helm chart (from the file
 * {@code kubeloop:manifests} writes), the test kit and the development registration
 * ({@link WebhookConfigurations}) all take name, path, rule and operations from here, so a test on
 * a real API server exercises the registration the chart installs.
 *
 * <ul>
 * <li>validating: {@code validate.<plural>.<group>}, CREATE and UPDATE, and DELETE only when the
 *     validator overrides {@code validateDelete} (validation never blocks a deletion unless asked);
 * <li>mutating: {@code default.<plural>.<group>}, CREATE and UPDATE;
 * <li>conversion: the CRD {@code <plural>.<group>}, no operations.
 * </ul>
 * Side effects {@code None}, match policy {@code Equivalent} and review version {@code v1} are the
 * same for all; failure policy, timeout and namespace selector are the deployment's choice. Immutable.
 *
 * @param name the webhook's name in its configuration, or the CRD's name for a conversion
 */
public record WebhookDescription(WebhookType type, String name, String path, ResourceType resource,
        List<String> operations) {

    public WebhookDescription {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(resource, "resource");
        operations = List.copyOf(operations);
    }

    /** The descriptions of {@code webhooks}, in their order. */
    public static List<WebhookDescription> of(Webhooks webhooks) {
        List<WebhookDescription> result = new ArrayList<>();
        for (Webhook webhook : webhooks.all()) {
            ResourceType type = webhook.resource();
            String qualified = plural(type) + "." + (type.group().isEmpty() ? "core.k8s.io" : type.group());
            result.add(switch (webhook.type()) {
                case VALIDATING -> new WebhookDescription(webhook.type(), "validate." + qualified, webhook.path(),
                        type, webhook instanceof ValidatingWebhook<?> validating && validating.validatesDeletes()
                                ? List.of("CREATE", "UPDATE", "DELETE") : List.of("CREATE", "UPDATE"));
                case MUTATING -> new WebhookDescription(webhook.type(), "default." + qualified, webhook.path(), type,
                        List.of("CREATE", "UPDATE"));
                case CONVERSION -> new WebhookDescription(webhook.type(), plural(type) + "." + type.group(),
                        webhook.path(), type, List.of());
            });
        }
        return result;
    }

    /** The resource's plural, as the rules and the CRD's name spell it. */
    public String plural() {
        return plural(resource);
    }

    /** {@code Namespaced} or {@code Cluster}, the rule's scope. */
    public String scope() {
        return Namespaced.class.isAssignableFrom(resource.javaType()) ? "Namespaced" : "Cluster";
    }

    private static String plural(ResourceType type) {
        return HasMetadata.getPlural(type.javaType());
    }
}
