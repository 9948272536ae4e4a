package dev.kubeloop.webhook;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.runtime.Causes;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * JSON in and out of the webhooks. The envelope (a review's own fields) is read as a tree with a
 * strict plain mapper: a body must be one JSON document, not YAML, not two documents. Objects go
 * between that tree and their Java classes through fabric8's {@link KubernetesSerialization}, the
 * one that knows fabric8's model (never an application's Jackson mapper). Stateless.
 *
 * <p>What a body may cost: it is first read as a stream, which builds nothing, to check that it
 * is JSON nested at most {@value #MAX_NESTING_DEPTH} levels and to find its {@code apiVersion} and
 * {@code kind}; only the body of a review (admission or conversion v1) is then read as a tree,
 * which costs up to ~20 times its size (docs/webhooks.md). Anything else is answered from those two
 * fields alone.
 */
final class Json {

    /**
     * The deepest nesting a body may have: a review, its request, the object, and the object's
     * own fields (a Deployment's deepest, a container's env valueFrom key, is 12 levels down; CRD
     * schemas rarely pass 30). Jackson's default is 1,000; deep nesting is what costs a tree the
     * most per byte and a recursive reader its stack.
     */
    static final int MAX_NESTING_DEPTH = 100;

    /** The reviews the webhooks read: apiVersion to kind. Any other body is never read as a tree. */
    private static final Map<String, String> REVIEWS = Map.of("admission.k8s.io/v1", "AdmissionReview",
            "apiextensions.k8s.io/v1", "ConversionReview");

    private static final ObjectMapper ENVELOPE = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
            .build()).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final KubernetesSerialization serialization;

    Json(KubernetesSerialization serialization) {
        this.serialization = serialization;
    }

    /**
     * The body as a JSON object tree; for a body that is not a v1 review, a tree of its
     * {@code apiVersion} and {@code kind} only, which is all its refusal needs.
     */
    JsonNode readTree(byte[] body) throws BadReview {
        ObjectNode envelope = envelope(body);
        if (!envelope.path("kind").asText("").equals(REVIEWS.get(envelope.path("apiVersion").asText("")))) {
            return envelope;
        }
        try {
            return ENVELOPE.readTree(body);
        } catch (IOException e) {
            throw notJson(e);
        }
    }

    /**
     * Reads the whole body as a stream, building nothing: checks that it is one JSON object nested
     * at most {@value #MAX_NESTING_DEPTH} deep, and returns its top-level apiVersion and kind.
     */
    private static ObjectNode envelope(byte[] body) throws BadReview {
        ObjectNode envelope = ENVELOPE.createObjectNode();
        try (JsonParser parser = ENVELOPE.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new BadReview(null, "the body is not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (value == JsonToken.VALUE_STRING && ("apiVersion".equals(field) || "kind".equals(field))) {
                    envelope.put(field, parser.getText());
                } else {
                    parser.skipChildren();
                }
            }
            if (parser.nextToken() != null) {
                throw new BadReview(null, "the body is not JSON (more than one document)");
            }
        } catch (StreamConstraintsException e) {
            throw new BadReview(null, "the body is nested deeper than " + MAX_NESTING_DEPTH
                    + " levels, which no Kubernetes object is");
        } catch (IOException e) {
            throw notJson(e);
        }
        return envelope;
    }

    /**
     * How many JSON values (scalars, arrays and objects) {@code body} holds, read as a stream that
     * builds nothing; -1 if it is not JSON within the nesting limit (the review's reading says why).
     * What a tree of the body costs grows with this, not with its bytes: {@code [],} is 3 bytes
     * and an array node of ~50.
     */
    static long values(byte[] body) {
        long values = 0;
        try (JsonParser parser = ENVELOPE.createParser(body)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                if (token != JsonToken.FIELD_NAME && token != JsonToken.END_ARRAY && token != JsonToken.END_OBJECT) {
                    values++;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return values;
    }

    private static BadReview notJson(IOException e) {
        if (e instanceof JsonProcessingException json) {
            return new BadReview(null, "the body is not JSON (" + firstLine(json.getOriginalMessage()) + ")");
        }
        return new BadReview(null, "the body is not JSON (" + e.getClass().getSimpleName() + ")");
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
        JsonMappingException mapping = Causes.find(failure, JsonMappingException.class).orElse(null);
        if (mapping == null) {
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
            Class<?> target = mismatch.getTargetType();
            if (target.isEnum()) {
                return where + " must be one of " + allowedValues(target);
            }
            return where + " must be " + article(target);
        }
        return where + " has a value of the wrong type";
    }

    /**
     * An enum's values as they are written in JSON ({@code @JsonProperty}'s name, else the
     * constant's): what a user may write, in declaration order.
     */
    private static String allowedValues(Class<?> enumType) {
        return java.util.Arrays.stream(enumType.getEnumConstants()).map(constant -> {
            String name = ((Enum<?>) constant).name();
            try {
                JsonProperty property = enumType.getField(name).getAnnotation(JsonProperty.class);
                return property != null && !property.value().isEmpty() ? property.value() : name;
            } catch (NoSuchFieldException e) {
                return name;
            }
        }).collect(Collectors.joining(", "));
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
