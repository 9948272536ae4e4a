package dev.kubeloop.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSONPatch (RFC 6902) a mutating webhook answers with: the changes the defaulter made,
 * expressed against the object exactly as the API server sent it.
 *
 * <p>Why not simply diff the request's object against the defaulted one (controller-runtime's
 * way)? The defaulted object went through the Java class, which drops fields it does not know and
 * adds the ones it initializes. A plain diff would remove the unknown fields (controller-runtime
 * drops every {@code remove} to avoid that, so its defaulters cannot remove anything) and write the
 * Java defaults. So: the changes are the diff ({@code zjsonpatch}) between the object as the Java
 * class read it and as the defaulter left it, both serialized the same way; then each change is
 * rebased onto the raw object: an add or replace becomes whichever of the two the raw object
 * needs, a change below a member the raw object lacks adds that member whole, a remove of what the
 * raw object does not have is dropped, and a change to {@code null} is a remove (fabric8 writes
 * unset fields of user classes as null). Applying the result to the raw object gives the raw
 * object plus exactly the defaulter's changes. Stateless.
 */
final class DefaultingPatch {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private DefaultingPatch() {
    }

    /**
     * The patch that applies to {@code raw} what the defaulter changed between {@code asRead} and
     * {@code defaulted}.
     */
    static ArrayNode between(JsonNode raw, JsonNode asRead, JsonNode defaulted) {
        JsonNode changes = JsonDiff.asJson(asRead, defaulted, DiffFlags.dontNormalizeOpIntoMoveAndCopy());
        JsonNode current = raw.deepCopy();
        ArrayNode patch = NODES.arrayNode();
        for (JsonNode change : changes) {
            List<String> path = parse(change.path("path").asText());
            String op = change.path("op").asText();
            JsonNode value = change.get("value");
            if ("remove".equals(op) || value == null || value.isNull()) {
                if (at(current, path) != null) {
                    current = emit(patch, current, operation("remove", path, null));
                }
                continue;
            }
            current = addOrReplace(patch, current, path, op, value, defaulted);
        }
        return patch;
    }

    private static JsonNode addOrReplace(ArrayNode patch, JsonNode current, List<String> path, String op,
            JsonNode value, JsonNode defaulted) {
        int existing = deepestExisting(current, path);
        if (existing < path.size() - 1) {
            // the raw object lacks a parent: add the first missing member whole, as the defaulter left it
            List<String> member = path.subList(0, existing + 2);
            JsonNode whole = at(defaulted, member);
            return whole == null ? current : emit(patch, current, operation("add", member, whole));
        }
        JsonNode parent = at(current, path.subList(0, path.size() - 1));
        JsonNode present = at(current, path);
        if (parent != null && parent.isArray()) {
            // array changes keep their operation: indexes are those of the Java class's arrays,
            // which have the raw object's elements
            String arrayOp = "replace".equals(op) && present == null ? "add" : op;
            return emit(patch, current, operation(arrayOp, path, value));
        }
        if (value.equals(present)) {
            return current;
        }
        return emit(patch, current, operation(present == null ? "add" : "replace", path, value));
    }

    /** How many leading tokens of {@code path} name something in {@code document}, minus one (-1: none). */
    private static int deepestExisting(JsonNode document, List<String> path) {
        JsonNode node = document;
        for (int i = 0; i < path.size() - 1; i++) {
            node = child(node, path.get(i));
            if (node == null || !(node.isObject() || node.isArray())) {
                return i - 1;
            }
        }
        return path.size() - 1;
    }

    private static JsonNode emit(ArrayNode patch, JsonNode current, ObjectNode operation) {
        patch.add(operation);
        ArrayNode one = NODES.arrayNode().add(operation);
        return io.fabric8.zjsonpatch.JsonPatch.apply(one, current);
    }

    private static ObjectNode operation(String op, List<String> path, JsonNode value) {
        ObjectNode operation = NODES.objectNode().put("op", op).put("path", format(path));
        if (value != null) {
            operation.set("value", withoutNulls(value));
        }
        return operation;
    }

    /** {@code value} without null members at any depth: fabric8 writes unset fields as null, which means absent. */
    private static JsonNode withoutNulls(JsonNode value) {
        if (value.isObject()) {
            ObjectNode copy = NODES.objectNode();
            value.properties().forEach(field -> {
                if (!field.getValue().isNull()) {
                    copy.set(field.getKey(), withoutNulls(field.getValue()));
                }
            });
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = NODES.arrayNode();
            value.forEach(element -> copy.add(withoutNulls(element)));
            return copy;
        }
        return value;
    }

    static JsonNode at(JsonNode document, List<String> path) {
        JsonNode node = document;
        for (String token : path) {
            node = child(node, token);
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    private static JsonNode child(JsonNode node, String token) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isObject()) {
            return node.get(token);
        }
        if (node.isArray() && token.matches("\\d+")) {
            int index = Integer.parseInt(token);
            return index < node.size() ? node.get(index) : null;
        }
        return null;
    }

    /** RFC 6901: {@code /spec/a~1b} is the tokens {@code spec}, {@code a/b}. */
    static List<String> parse(String pointer) {
        List<String> tokens = new ArrayList<>();
        if (pointer.isEmpty()) {
            return tokens;
        }
        for (String token : pointer.substring(1).split("/", -1)) {
            tokens.add(token.replace("~1", "/").replace("~0", "~"));
        }
        return tokens;
    }

    static String format(List<String> tokens) {
        StringBuilder pointer = new StringBuilder();
        for (String token : tokens) {
            pointer.append('/').append(token.replace("~", "~0").replace("/", "~1"));
        }
        return pointer.toString();
    }
}
