package dev.kubeloop.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionResponse;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an {@code apiextensions.k8s.io/v1 ConversionReview} and writes the answer, with fabric8's
 * model classes: a JSON object, that apiVersion and kind, a {@code request} with a {@code uid}, a
 * {@code desiredAPIVersion} and a list of {@code objects}. Up to the uid a failure is an HTTP 400;
 * after it, a {@code Failure} result with the reason, which the API server reports to the user.
 * Stateless.
 */
final class ConversionReviews {

    static final String API_VERSION = "apiextensions.k8s.io/v1";
    static final String KIND = "ConversionReview";

    private ConversionReviews() {
    }

    /** A request read from its review. */
    record Request(String uid, String desiredApiVersion, List<JsonNode> objects) {
    }

    static Request read(Json json, byte[] body) throws BadReview {
        ReviewEnvelope envelope = ReviewEnvelope.read(json, body, API_VERSION, KIND, "the CRD's conversionReviewVersions");
        JsonNode request = envelope.request();
        String uid = envelope.uid();
        String desired = request.path("desiredAPIVersion").asText("");
        if (desired.isEmpty()) {
            throw new BadReview(uid, "the ConversionReview's request has no desiredAPIVersion");
        }
        JsonNode objects = request.path("objects");
        if (!objects.isArray()) {
            throw new BadReview(uid, "the ConversionReview's request has no list of objects");
        }
        List<JsonNode> list = new ArrayList<>(objects.size());
        objects.forEach(list::add);
        return new Request(uid, desired, list);
    }

    static WebhookAnswer converted(Json json, String uid, List<JsonNode> objects) {
        ConversionResponse response = new ConversionResponse();
        response.setUid(uid);
        response.setConvertedObjects(new ArrayList<>(objects));
        response.setResult(status("Success", null));
        return answer(json, 200, response);
    }

    /** The whole review fails (the API server converts all objects of a request or none). */
    static WebhookAnswer failed(Json json, String uid, String message, Throwable failure) {
        ConversionResponse response = new ConversionResponse();
        response.setUid(uid == null ? "" : uid);
        response.setConvertedObjects(List.of());
        response.setResult(status("Failure", message));
        return answer(json, uid == null ? 400 : 200, response).failedIn(failure);
    }

    static WebhookAnswer bad(Json json, BadReview bad) {
        return failed(json, bad.uid(), bad.getMessage(), null);
    }

    private static Status status(String outcome, String message) {
        return new StatusBuilder().withApiVersion(null).withKind(null).withStatus(outcome).withMessage(message)
                .build();
    }

    private static WebhookAnswer answer(Json json, int httpStatus, ConversionResponse response) {
        return WebhookAnswer.json(httpStatus, json.write(new ConversionReview(API_VERSION, KIND, null, response)));
    }
}
