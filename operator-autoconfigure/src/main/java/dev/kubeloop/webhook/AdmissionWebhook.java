package dev.kubeloop.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.Operation;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * What a validating and a mutating webhook share: reading the review, refusing kinds and versions
 * they do not serve (naming what they expected) and objects that are not of the kind the request
 * names, letting an object being deleted go and a finalizer be added without asking the user's code
 * ({@link FinalizerUpdates}),
 * reading the objects as the Java type, and turning whatever the user's code throws into a denial.
 * Subclasses decide. Stateless, thread-safe.
 *
 * @param <T> the resource type served
 */
abstract class AdmissionWebhook<T extends HasMetadata> implements Webhook {

    private final WebhookType type;
    private final ResourceType resource;
    private final Class<T> javaType;
    private final Json json;
    private final String path;

    AdmissionWebhook(WebhookType type, Class<T> javaType, Json json) {
        this.type = type;
        this.javaType = Objects.requireNonNull(javaType, "javaType");
        this.resource = ResourceType.of(javaType);
        this.json = json;
        this.path = type.path(resource);
    }

    @Override
    public final WebhookType type() {
        return type;
    }

    @Override
    public final String path() {
        return path;
    }

    @Override
    public final ResourceType resource() {
        return resource;
    }

    @Override
    public final WebhookAnswer handle(byte[] body) {
        AdmissionReviews.Request request;
        try {
            request = AdmissionReviews.read(json, body);
            checkKind(request);
            checkObjectKind(request, request.object(), "request.object");
            checkObjectKind(request, request.oldObject(), "request.oldObject");
        } catch (BadReview bad) {
            return AdmissionReviews.bad(json, bad);
        }
        if (request.context().operation() == Operation.UPDATE
                && (FinalizerUpdates.onlyLetsGo(request.oldObject(), request.object())
                        || FinalizerUpdates.onlyAddsFinalizers(request.oldObject(), request.object()))) {
            // validation never blocks a deletion: a finalizer's removal must pass whatever the spec says today,
            // and so must a controller's adding of its finalizer, or it never gets to report the spec as invalid
            return AdmissionReviews.allowed(json, request.uid(), Admission.allowed());
        }
        try {
            return decide(request);
        } catch (BadReview bad) {
            return AdmissionReviews.bad(json, bad);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            // the user's code threw: deny with its message; the server counts it (webhook panics)
            return AdmissionReviews.failed(json, request.uid(), message(e), e);
        }
    }

    /** The answer for a well-formed request of the served kind. */
    abstract WebhookAnswer decide(AdmissionReviews.Request request) throws BadReview;

    /** {@code node} as the served Java type; null stays null. */
    final T read(JsonNode node, AdmissionReviews.Request request, String what) throws BadReview {
        return node == null ? null : json.read(node, javaType, request.uid(), what);
    }

    /** {@code node} as the served type, required for the request's operation. */
    final T require(JsonNode node, AdmissionReviews.Request request, String what) throws BadReview {
        if (node == null) {
            throw new BadReview(request.uid(), "a " + request.context().operation() + " request must carry "
                    + what);
        }
        return read(node, request, what);
    }

    final Json json() {
        return json;
    }

    private void checkKind(AdmissionReviews.Request request) throws BadReview {
        GroupVersionKind kind = request.request().getKind();
        if (resource.matches(kind)) {
            return;
        }
        String expected = "this webhook (" + path + ") serves " + resource + ", the request is for "
                + ResourceType.describe(kind);
        if (kind != null && resource.sameKind(kind.getGroup(), kind.getKind())) {
            throw new BadReview(request.uid(), expected + ": register it with matchPolicy Equivalent (the default) "
                    + "and rules for version " + resource.version() + " only, so that the API server converts "
                    + "other versions first");
        }
        throw new BadReview(request.uid(), expected);
    }

    /**
     * The object must be of the kind the request names (and this webhook serves, checked before):
     * read as the served type, another kind's fields would be ignored and an empty spec judged.
     */
    private void checkObjectKind(AdmissionReviews.Request request, JsonNode object, String field) throws BadReview {
        if (object == null) {
            return;
        }
        String apiVersion = object.path("apiVersion").asText("");
        String kind = object.path("kind").asText("");
        if (apiVersion.equals(resource.apiVersion()) && kind.equals(resource.kind())) {
            return;
        }
        String found = apiVersion.isEmpty() && kind.isEmpty() ? "has no apiVersion and kind"
                : "is " + (apiVersion.isEmpty() ? "(no apiVersion)" : apiVersion) + " " + (kind.isEmpty() ? "(no kind)"
                        : kind);
        throw new BadReview(request.uid(), field + " " + found + ", but request.kind is " + resource);
    }

    /** The exception's message, or its type when it has none (a NullPointerException without a message). */
    static String message(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getName() : message;
    }
}
