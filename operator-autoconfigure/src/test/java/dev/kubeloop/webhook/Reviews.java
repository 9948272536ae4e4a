package dev.kubeloop.webhook;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** AdmissionReview and ConversionReview bodies as the API server sends them, and their answers read back. */
final class Reviews {

    static final ObjectMapper JSON = new ObjectMapper();
    /** As the operator's client reads: fields the Java class does not know are ignored. */
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization(
            new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES), true);

    private Reviews() {
    }

    /** {@code request} of an AdmissionReview for a Shelf v2, in namespace test, without objects. */
    static ObjectNode admissionRequest(String operation, String version) {
        ObjectNode request = JSON.createObjectNode();
        request.put("uid", "705ab4f5-6393-11e8-b7cc-42010a800002");
        request.putObject("kind").put("group", "kubeloop.dev").put("version", version).put("kind", "Shelf");
        request.putObject("resource").put("group", "kubeloop.dev").put("version", version).put("resource", "shelves");
        request.put("namespace", "test").put("name", "oak").put("operation", operation);
        request.putObject("userInfo").put("username", "alice").putArray("groups").add("system:authenticated");
        request.put("dryRun", false);
        return request;
    }

    static byte[] admission(ObjectNode request) {
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                .put("kind", "AdmissionReview");
        review.set("request", request);
        return bytes(review);
    }

    static JsonNode tree(Object object) {
        return SERIALIZATION.convertValue(object, JsonNode.class);
    }

    static byte[] conversion(String desiredApiVersion, JsonNode... objects) {
        ObjectNode review = JSON.createObjectNode().put("apiVersion", "apiextensions.k8s.io/v1")
                .put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", "0f3c-conversion")
                .put("desiredAPIVersion", desiredApiVersion);
        ArrayNode list = request.putArray("objects");
        for (JsonNode object : objects) {
            list.add(object);
        }
        return bytes(review);
    }

    static byte[] bytes(JsonNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The {@code response} of an answered review. */
    static JsonNode response(WebhookAnswer answer) {
        try {
            return JSON.readTree(answer.body()).path("response");
        } catch (IOException e) {
            throw new UncheckedIOException(answer.bodyText(), e);
        }
    }

    /** The decoded JSONPatch of an AdmissionReview response; an empty array when there is none. */
    static JsonNode patch(WebhookAnswer answer) {
        JsonNode response = response(answer);
        if (!response.hasNonNull("patch")) {
            return JSON.createArrayNode();
        }
        try {
            return JSON.readTree(Base64.getDecoder().decode(response.get("patch").asText()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
