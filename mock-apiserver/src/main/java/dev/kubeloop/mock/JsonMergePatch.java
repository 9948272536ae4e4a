package dev.kubeloop.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * JSON Merge Patch (RFC 7386), computed here because kubernetes-server-mock 7.8.0's merge patch
 * stores a null instead of deleting the field. Stateless.
 */
final class JsonMergePatch {

    private JsonMergePatch() {
    }

    /** {@code target} with {@code patch} merged into it; neither argument is modified. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> field : patch.properties()) {
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), apply(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }
}
