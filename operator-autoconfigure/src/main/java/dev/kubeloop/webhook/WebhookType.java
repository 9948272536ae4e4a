package dev.kubeloop.webhook;

import java.util.Locale;

/**
 * The three kinds of webhook Kubeloop serves, and the path each derives from a resource type, as
 * controller-runtime derives them (so that kubebuilder's manifests and habits carry over):
 * {@code /validate-<group>-<version>-<kind>} and {@code /mutate-<group>-<version>-<kind>} with
 * the group's dots as dashes and the kind in lower case; conversion, which serves every version of
 * a kind, {@code /convert-<group>-<kind>} (controller-runtime has one {@code /convert} for all
 * kinds; one path per kind lets a review of another kind be refused by name).
 */
public enum WebhookType {
    VALIDATING("validate"),
    MUTATING("mutate"),
    CONVERSION("convert");

    private final String prefix;

    WebhookType(String prefix) {
        this.prefix = prefix;
    }

    /** The path of this webhook for {@code type}. */
    public String path(ResourceType type) {
        String group = type.group().replace('.', '-');
        String kind = type.kind().toLowerCase(Locale.ROOT);
        return switch (this) {
            case VALIDATING, MUTATING -> "/" + prefix + "-" + group + "-" + type.version() + "-" + kind;
            case CONVERSION -> "/" + prefix + "-" + group + "-" + kind;
        };
    }
}
