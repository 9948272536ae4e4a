package dev.kubeloop.webhook;

import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.Validator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Arrays;
import java.util.Objects;

/**
 * Serves a {@link Validator}: create → {@code validateCreate(object)}, update →
 * {@code validateUpdate(oldObject, object)}, delete → {@code validateDelete(oldObject)}, connect →
 * allowed (Kubeloop's validators are about objects). An update that only lets an object being
 * deleted go, or only adds a finalizer, never gets here ({@link FinalizerUpdates}). Stateless,
 * thread-safe.
 */
final class ValidatingWebhook<T extends HasMetadata> extends AdmissionWebhook<T> {

    private final Validator<T> validator;

    ValidatingWebhook(Class<T> javaType, Validator<T> validator, Json json) {
        super(WebhookType.VALIDATING, javaType, json);
        this.validator = Objects.requireNonNull(validator, "validator");
    }

    /**
     * Whether the validator overrides {@code validateDelete}: only then is {@code DELETE} among the
     * operations registered for it, since validation never blocks a deletion unless asked to.
     */
    boolean validatesDeletes() {
        return Arrays.stream(validator.getClass().getMethods()).anyMatch(method -> method.getName()
                .equals("validateDelete") && method.getParameterCount() == 2
                && method.getDeclaringClass() != Validator.class);
    }

    @Override
    WebhookAnswer decide(AdmissionReviews.Request request) throws BadReview {
        Admission admission = switch (request.context().operation()) {
            case CREATE -> validator.validateCreate(require(request.object(), request, "an object"),
                    request.context());
            case UPDATE -> validator.validateUpdate(require(request.oldObject(), request, "an oldObject"),
                    require(request.object(), request, "an object"), request.context());
            case DELETE -> validator.validateDelete(require(request.oldObject(), request, "an oldObject"),
                    request.context());
            case CONNECT -> Admission.allowed();
        };
        if (admission == null) {
            throw new IllegalStateException(validator.getClass().getName() + " returned null instead of an Admission");
        }
        return admission.isAllowed() ? AdmissionReviews.allowed(json(), request.uid(), admission)
                : AdmissionReviews.denied(json(), request, admission);
    }
}
