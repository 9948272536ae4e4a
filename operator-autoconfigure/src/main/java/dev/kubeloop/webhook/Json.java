package dev.kubeloop.webhook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.stream.Collectors;

/**
 * JSON in and out of the webhooks. The envelope (a review's own fields) is read as a tree with a
 * strict plain mapper: a body must be one JSON document, not YAML, not two documents. Objects go
 * between that tree and their Java classes through fabric8's {@link KubernetesSerialization}, the
 * one that knows fabric8's model (never an application's Jackson mapper). Stateless.
 */
final class Json {

    private static final ObjectMapper ENVELOPE = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final KubernetesSerialization serialization;

    Json(KubernetesSerialization serialization) {
        this.serialization = serialization;
    }

    /** The body as a JSON object tree. */
    JsonNode readTree(byte[] body) throws BadReview {
        JsonNode tree;
        try {
            tree = ENVELOPE.readTree(body);
        } catch (JsonProcessingException e) {
            throw new BadReview(null, "the body is not JSON (" + firstLine(e.getOriginalMessage()) + ")");
        } catch (IOException e) {
            throw new BadReview(null, "the body is not JSON (" + e.getClass().getSimpleName() + ")");
        }
        if (tree == null || !tree.isObject()) {
            throw new BadReview(null, "the body is not a JSON object");
        }
        return tree;
    }

    /** {@code node} as an instance of {@code type}. */
    <T> T read(JsonNode node, Class<T> type, String uid, String what) throws BadReview {
        try {
            return serialization.convertValue(node, type);
        } catch (IllegalArgumentException e) {
            throw new BadReview(uid, what + " does not read as " + type.getSimpleName() + ": " + describe(e));
        }
    }

    /** {@code value} as a tree, through fabric8's serialization. */
    JsonNode tree(Object value) {
        return serialization.convertValue(value, JsonNode.class);
    }

    String write(Object value) {
        return serialization.asJson(value);
    }

    KubernetesSerialization serialization() {
        return serialization;
    }

    /**
     * Where and why a read failed, without the offending value (it may be a secret; the user who
     * sent it sees the field and the expected type, which is what they need to fix it).
     */
    static String describe(Throwable failure) {
        Throwable cause = failure;
        while (cause != null && !(cause instanceof JsonMappingException)) {
            cause = cause.getCause();
        }
        if (!(cause instanceof JsonMappingException mapping)) {
            return failure.getClass().getSimpleName();
        }
        String path = mapping.getPath().stream()
                .map(reference -> reference.getFieldName() != null ? reference.getFieldName()
                        : "[" + reference.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
        String where = path.isEmpty() ? "the object" : path;
        if (mapping instanceof UnrecognizedPropertyException unknown) {
            return where + " is not a field of " + unknown.getReferringClass().getSimpleName();
        }
        if (mapping instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return where + " must be " + article(mismatch.getTargetType());
        }
        return where + " has a value of the wrong type";
    }

    private static String article(Class<?> type) {
        String name = switch (type.getSimpleName()) {
            case "Integer", "int", "Long", "long", "Short", "short" -> "whole number";
            case "Double", "double", "Float", "float", "BigDecimal", "Quantity" -> "number";
            case "Boolean", "boolean" -> "boolean";
            case "String" -> "string";
            default -> type.isArray() || java.util.Collection.class.isAssignableFrom(type) ? "list"
                    : java.util.Map.class.isAssignableFrom(type) ? "object" : type.getSimpleName();
        };
        return (name.matches("^[aeiouAEIOU].*") ? "an " : "a ") + name;
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unreadable";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
