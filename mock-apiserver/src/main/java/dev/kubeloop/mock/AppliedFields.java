package dev.kubeloop.mock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which fields each field manager applied to each object, so that a field a manager stops applying
 * is removed, as server-side apply removes it, unless another manager applies it too. A field is a
 * path to a value that is not an object (a list counts as one field: the approximation replaces
 * lists whole). The object's identity (apiVersion, kind, name, namespace) is never removed.
 *
 * <p>Thread-safe: every method is synchronized; the sets are small and the mock is a test server.
 */
final class AppliedFields {

    private static final Set<List<String>> IDENTITY = Set.of(List.of("apiVersion"), List.of("kind"),
            List.of("metadata", "name"), List.of("metadata", "namespace"));

    /** Object (its path, plus "/status" for the status subresource) → manager → the fields it applied last. */
    private final Map<String, Map<String, Set<List<String>>>> applied = new HashMap<>();
    /** The uid of the object the fields were applied to: another uid is a new object, without history. */
    private final Map<String, String> uids = new HashMap<>();

    /**
     * Records that {@code manager} applied {@code patch} to {@code object} (whose uid is
     * {@code uid}: a new uid starts a new history), and returns a JSON
     * merge patch that deletes (sets to null) the fields it applied last time and not now, which no
     * other manager applies: to be merged into {@code patch} before it is sent.
     */
    synchronized ObjectNode removals(String object, String uid, String manager, JsonNode patch) {
        if (!uid.equals(uids.put(object, uid))) {
            applied.remove(object);
        }
        Map<String, Set<List<String>>> managers = applied.computeIfAbsent(object, key -> new HashMap<>());
        Set<List<String>> now = new HashSet<>();
        collect(patch, new ArrayList<>(), now);
        Set<List<String>> before = managers.put(manager, now);
        ObjectNode removals = JsonNodeFactory.instance.objectNode();
        if (before == null) {
            return removals;
        }
        for (List<String> field : before) {
            if (!now.contains(field) && !IDENTITY.contains(field) && !appliedByOthers(managers, manager, field)) {
                setNull(removals, field);
            }
        }
        return removals;
    }

    /** {@code patch} with {@code removals} merged in (nulls where the patch has nothing). */
    static JsonNode withRemovals(JsonNode patch, ObjectNode removals) {
        if (removals.isEmpty()) {
            return patch;
        }
        ObjectNode merged = ((ObjectNode) patch).deepCopy();
        merge(merged, removals);
        return merged;
    }

    private static void merge(ObjectNode target, ObjectNode removals) {
        for (Map.Entry<String, JsonNode> field : removals.properties()) {
            JsonNode existing = target.get(field.getKey());
            if (field.getValue().isObject() && existing != null && existing.isObject()) {
                merge((ObjectNode) existing, (ObjectNode) field.getValue());
            } else if (existing == null) {
                target.set(field.getKey(), field.getValue());
            }
        }
    }

    private static boolean appliedByOthers(Map<String, Set<List<String>>> managers, String manager,
            List<String> field) {
        return managers.entrySet().stream().anyMatch(entry -> !entry.getKey().equals(manager)
                && entry.getValue().contains(field));
    }

    private static void collect(JsonNode node, List<String> path, Set<List<String>> fields) {
        if (!node.isObject()) {
            fields.add(List.copyOf(path));
            return;
        }
        for (Map.Entry<String, JsonNode> child : node.properties()) {
            path.add(child.getKey());
            collect(child.getValue(), path, fields);
            path.remove(path.size() - 1);
        }
    }

    private static void setNull(ObjectNode root, List<String> field) {
        ObjectNode parent = root;
        for (String name : field.subList(0, field.size() - 1)) {
            JsonNode child = parent.get(name);
            parent = child instanceof ObjectNode object ? object : parent.putObject(name);
        }
        parent.putNull(field.get(field.size() - 1));
    }
}
