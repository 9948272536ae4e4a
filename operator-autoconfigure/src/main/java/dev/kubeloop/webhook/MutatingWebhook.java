package dev.kubeloop.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.kubeloop.api.webhook.Defaulter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * Serves a {@link Defaulter} on create and update: reads the object, lets the defaulter change it,
 * and answers with the JSONPatch of those changes ({@link DefaultingPatch}); no change, no patch.
 * Delete and connect are allowed untouched. An object that does not read as the Java type is let
 * through unchanged: the API server validates it against the CRD's schema after the mutating
 * phase and answers with every field's error at once, where a denial here would name only the first
 * field Jackson tripped on (and the validating webhook, if any, still denies it, naming the field).
 * Stateless, thread-safe.
 */
final class MutatingWebhook<T extends HasMetadata> extends AdmissionWebhook<T> {

    private final Defaulter<T> defaulter;

    MutatingWebhook(Class<T> javaType, Defaulter<T> defaulter, Json json) {
        super(WebhookType.MUTATING, javaType, json);
        this.defaulter = Objects.requireNonNull(defaulter, "defaulter");
    }

    @Override
    WebhookAnswer decide(AdmissionReviews.Request request) throws BadReview {
        return switch (request.context().operation()) {
            case CREATE, UPDATE -> {
                JsonNode raw = request.object();
                T object;
                try {
                    object = require(raw, request, "an object");
                } catch (BadReview unreadable) {
                    if (raw == null) {
                        throw unreadable;
                    }
                    yield AdmissionReviews.patched(json(), request.uid(), null); // the schema's answer is fuller
                }
                JsonNode asRead = json().tree(object);
                defaulter.applyDefaults(object, request.context());
                ArrayNode patch = DefaultingPatch.between(raw, asRead, json().tree(object));
                yield AdmissionReviews.patched(json(), request.uid(), patch.isEmpty() ? null : patch.toString());
            }
            case DELETE, CONNECT -> AdmissionReviews.patched(json(), request.uid(), null);
        };
    }
}
