package dev.kubeloop.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.webhook.Admission;
import dev.kubeloop.api.webhook.AdmissionContext;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Reads an {@code admission.k8s.io/v1 AdmissionReview} and writes the answer, with fabric8's
 * model classes. What a webhook needs of the envelope, checked in order, each failure with its
 * reason: a JSON object, {@code apiVersion: admission.k8s.io/v1}, {@code kind: AdmissionReview}, a
 * {@code request} with a {@code uid} and an operation Kubernetes knows. Up to there a failure is an
 * HTTP 400 (there is no uid to answer); after it, a denial with code 400. Stateless.
 */
final class AdmissionReviews {

    static final String API_VERSION = "admission.k8s.io/v1";
    static final String KIND = "AdmissionReview";

    private AdmissionReviews() {
    }

    /** A request read from its review: the typed envelope, the raw objects, the context. */
    record Request(AdmissionRequest request, AdmissionContext context, JsonNode object, JsonNode oldObject) {

        String uid() {
            return request.getUid();
        }
    }

    static Request read(Json json, byte[] body) throws BadReview {
        ObjectNode requestNode = (ObjectNode) ReviewEnvelope.read(json, body, API_VERSION, KIND,
                "the webhook configuration's admissionReviewVersions").request();
        JsonNode object = objectOrNull(requestNode.get("object"));
        JsonNode oldObject = objectOrNull(requestNode.get("oldObject"));
        // The objects are read as the webhook's class later, from these nodes. Left in the envelope,
        // fabric8's AdmissionRequest would read them by kind, as the class the client's serialization
        // has registered for it (the informers register theirs, see WatchedKinds), and an object that
        // does not read as that class would fail the whole review instead of getting the denial naming
        // the field.
        requestNode.remove(List.of("object", "oldObject"));
        AdmissionRequest request = json.read(requestNode, AdmissionRequest.class, null, "the request");
        AdmissionContext context;
        try {
            context = AdmissionContext.of(request);
        } catch (RuntimeException e) {
            throw new BadReview(null, "the request's operation '" + request.getOperation()
                    + "' is none of CREATE, UPDATE, DELETE, CONNECT");
        }
        return new Request(request, context, object, oldObject);
    }

    private static JsonNode objectOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node;
    }

    static WebhookAnswer allowed(Json json, String uid, Admission admission) {
        AdmissionResponse response = response(uid, true, admission.warnings());
        return answer(json, 200, response);
    }

    /** Allowed with a JSONPatch; {@code patch} null or empty means no change. */
    static WebhookAnswer patched(Json json, String uid, String patch) {
        AdmissionResponse response = response(uid, true, List.of());
        if (patch != null) {
            response.setPatchType("JSONPatch");
            response.setPatch(Base64.getEncoder().encodeToString(patch.getBytes(StandardCharsets.UTF_8)));
        }
        return answer(json, 200, response);
    }

    /**
     * Denied as the validator said: 403 Forbidden, as controller-runtime's {@code Denied}; with field
     * errors 422 Invalid, as apimachinery's {@code NewInvalid}: the message
     * {@code Kind.group "name" is invalid: <errors>} and one cause per field error.
     */
    static WebhookAnswer denied(Json json, Request request, Admission admission) {
        AdmissionResponse response = response(request.uid(), false, admission.warnings());
        response.setStatus(admission.fieldErrors().isEmpty() ? status(403, "Forbidden", admission.message())
                : invalid(request, admission));
        return answer(json, 200, response);
    }

    private static Status invalid(Request request, Admission admission) {
        GroupVersionKind kind = request.context().requestKind();
        String group = kind == null || kind.getGroup() == null ? "" : kind.getGroup();
        String kindName = kind == null || kind.getKind() == null ? "" : kind.getKind();
        String name = request.context().name();
        if ((name == null || name.isEmpty()) && request.object() != null) {
            name = request.object().path("metadata").path("name").asText("");
        }
        name = name == null ? "" : name;
        List<StatusCause> causes = admission.fieldErrors().stream()
                .map(error -> new StatusCause(error.field(), error.body(), error.type().reason())).toList();
        String qualifiedKind = group.isEmpty() ? kindName : kindName + "." + group;
        return new StatusBuilder().withApiVersion(null).withKind(null).withStatus("Failure").withCode(422)
                .withReason("Invalid")
                .withMessage(qualifiedKind + " \"" + name + "\" is invalid: " + admission.message())
                .withNewDetails().withGroup(group).withKind(kindName).withName(name).withCauses(causes).endDetails()
                .build();
    }

    /** Denied because user code threw: 500, with the exception's message. */
    static WebhookAnswer failed(Json json, String uid, String message, Throwable failure) {
        AdmissionResponse response = response(uid, false, List.of());
        response.setStatus(status(500, "InternalError", message));
        return answer(json, 200, response).failedIn(failure);
    }

    /** The review's own fault: HTTP 400 when there is no uid to answer, else a denial with code 400. */
    static WebhookAnswer bad(Json json, BadReview bad) {
        AdmissionResponse response = response(bad.uid(), false, List.of());
        response.setStatus(status(400, "BadRequest", bad.getMessage()));
        return answer(json, bad.uid() == null ? 400 : 200, response);
    }

    private static AdmissionResponse response(String uid, boolean allowed, List<String> warnings) {
        AdmissionResponse response = new AdmissionResponse();
        response.setUid(uid == null ? "" : uid);
        response.setAllowed(allowed);
        if (!warnings.isEmpty()) {
            response.setWarnings(warnings);
        }
        return response;
    }

    private static Status status(int code, String reason, String message) {
        return new StatusBuilder().withApiVersion(null).withKind(null).withCode(code).withReason(reason)
                .withMessage(message).build();
    }

    private static WebhookAnswer answer(Json json, int httpStatus, AdmissionResponse response) {
        return WebhookAnswer.json(httpStatus, json.write(new AdmissionReview(API_VERSION, KIND, null, response)));
    }
}
