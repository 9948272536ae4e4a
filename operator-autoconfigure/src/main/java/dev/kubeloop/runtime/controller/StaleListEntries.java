package dev.kubeloop.runtime.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeloop.api.ApiRefusal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why the API server refused an apply as invalid (422) when the cause is a list merged by key (a
 * Service's ports by port and protocol, env vars by name) that still holds entries the apply does
 * not set. Server-side apply merges such a list entry by entry and removes only the entries this
 * field manager applied before; an entry another manager set ({@code kubectl edit} changing port 80
 * to 8080 makes a new entry, theirs) stays, and the merged list can be invalid: two unnamed ports,
 * two ports named {@code http}. No retry can fix that by itself.
 *
 * <p>Read from the stored object (with its {@code managedFields}, which hold the list's keys as
 * {@code k:{...}} and who set each entry) and the apply body: the entries of the lists the
 * refusal's causes point into whose key no entry of the body has. Stateless.
 */
final class StaleListEntries {

    /** One segment of a cause's field path: {@code ports[1]} is name "ports", index 1. */
    private static final Pattern SEGMENT = Pattern.compile("([^.\\[\\]]+)((?:\\[\\d+])*)");
    private static final Pattern INDEX = Pattern.compile("\\[(\\d+)]");
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * An entry the apply does not set.
     *
     * @param list the list's path as the API server names fields ({@code spec.ports})
     * @param pointer the entry's JSON pointer in the stored object ({@code /spec/ports/0})
     * @param key the entry's key ({@code {"port":8080,"protocol":"TCP"}})
     * @param managers the field managers that set it (none known: an entry no manager claims)
     * @param wanted the list as the apply sets it
     */
    record Entry(String list, String pointer, JsonNode key, Set<String> managers, JsonNode wanted) {

        /** The list's JSON pointer in the stored object ({@code /spec/ports}). */
        String listPointer() {
            return pointer.substring(0, pointer.lastIndexOf('/'));
        }
    }

    private StaleListEntries() {
    }

    /**
     * The stale entries of the keyed lists {@code refusal}'s causes point into.
     *
     * @param stored the object as the API server has it, managedFields included
     * @param body what the apply sent
     */
    static List<Entry> find(JsonNode stored, JsonNode body, ApiRefusal refusal) {
        Set<String> lists = new LinkedHashSet<>();
        List<Entry> found = new ArrayList<>();
        for (ApiRefusal.Cause cause : refusal.causes()) {
            String field = cause.field();
            int lastIndex = field == null ? -1 : field.lastIndexOf('[');
            if (lastIndex > 0 && lists.add(field.substring(0, lastIndex))) {
                found.addAll(inList(stored, body, field.substring(0, lastIndex)));
            }
        }
        return found;
    }

    /** The stale entries of the list at {@code path} ({@code spec.template.spec.containers[0].env}). */
    private static List<Entry> inList(JsonNode stored, JsonNode body, String path) {
        JsonNode storedNode = stored;
        JsonNode bodyNode = body;
        List<JsonNode> fieldTrees = new ArrayList<>();
        List<String> managers = new ArrayList<>();
        for (JsonNode entry : stored.path("metadata").path("managedFields")) {
            fieldTrees.add(entry.path("fieldsV1"));
            managers.add(entry.path("manager").asText());
        }
        StringBuilder pointer = new StringBuilder();
        Matcher segments = SEGMENT.matcher(path);
        while (segments.find()) {
            String name = segments.group(1);
            storedNode = storedNode.path(name);
            bodyNode = bodyNode.path(name);
            pointer.append('/').append(name.replace("~", "~0").replace("/", "~1"));
            fieldTrees.replaceAll(tree -> tree.path("f:" + name));
            Matcher indexes = INDEX.matcher(segments.group(2));
            while (indexes.find()) {
                int index = Integer.parseInt(indexes.group(1));
                JsonNode item = storedNode.path(index);
                JsonNode key = keyOf(item, fieldTrees);
                if (key == null) {
                    return List.of(); // not a list merged by key: nothing to say
                }
                storedNode = item;
                bodyNode = matching(bodyNode, key);
                pointer.append('/').append(index);
                fieldTrees.replaceAll(tree -> child(tree, key));
            }
        }
        if (!storedNode.isArray()) {
            return List.of();
        }
        List<Entry> stale = new ArrayList<>();
        for (int i = 0; i < storedNode.size(); i++) {
            JsonNode key = keyOf(storedNode.get(i), fieldTrees);
            if (key == null) {
                return List.of();
            }
            if (matching(bodyNode, key).isMissingNode()) {
                Set<String> setBy = new TreeSet<>();
                for (int m = 0; m < fieldTrees.size(); m++) {
                    if (!child(fieldTrees.get(m), key).isMissingNode()) {
                        setBy.add(managers.get(m));
                    }
                }
                stale.add(new Entry(path, pointer + "/" + i, key, setBy, bodyNode));
            }
        }
        return stale;
    }

    /** {@code item}'s key: its values of the key fields some manager's {@code k:{...}} entry names. */
    private static JsonNode keyOf(JsonNode item, List<JsonNode> fieldTrees) {
        for (JsonNode tree : fieldTrees) {
            for (Iterator<String> names = tree.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (name.startsWith("k:")) {
                    ObjectNode key = JsonNodeFactory.instance.objectNode();
                    for (Iterator<String> fields = parse(name).fieldNames(); fields.hasNext(); ) {
                        String field = fields.next();
                        key.set(field, item.path(field));
                    }
                    return key;
                }
            }
        }
        return null;
    }

    /** The manager's subtree for the entry with {@code key}, or a missing node. */
    private static JsonNode child(JsonNode tree, JsonNode key) {
        for (Map.Entry<String, JsonNode> field : tree.properties()) {
            if (field.getKey().startsWith("k:") && parse(field.getKey()).equals(key)) {
                return field.getValue();
            }
        }
        return JsonNodeFactory.instance.missingNode();
    }

    /**
     * The entry of {@code list} with {@code key}; a key field the entry leaves out matches (the API
     * server defaults it: a port's protocol).
     */
    private static JsonNode matching(JsonNode list, JsonNode key) {
        for (JsonNode item : list) {
            boolean matches = true;
            for (Map.Entry<String, JsonNode> field : key.properties()) {
                JsonNode value = item.path(field.getKey());
                matches &= value.isMissingNode() || value.equals(field.getValue());
            }
            if (matches) {
                return item;
            }
        }
        return JsonNodeFactory.instance.missingNode();
    }

    private static JsonNode parse(String keyField) {
        try {
            return JSON.readTree(keyField.substring(2));
        } catch (Exception e) {
            return JsonNodeFactory.instance.objectNode();
        }
    }

    /** What to tell the user: the lists, their stale entries and who set them, and the two ways out. */
    static String describe(String kind, List<Entry> stale) {
        StringBuilder text = new StringBuilder(" Server-side apply merges ");
        List<String> lists = stale.stream().map(Entry::list).distinct().toList();
        text.append(String.join(", ", lists)).append(" by key and keeps the entries this apply does not set: ");
        List<String> entries = new ArrayList<>();
        for (Entry entry : stale) {
            entries.add(entry.key() + (entry.managers().isEmpty() ? "" : " (set by " + String.join(", ",
                    entry.managers()) + ")"));
        }
        return text.append(String.join(", ", entries)).append(". Remove ").append(stale.size() == 1 ? "it" : "them")
                .append(" from the ").append(kind).append(" (kubectl edit), or apply with ")
                .append("ApplyOptions.defaults().removeStaleEntries() to have the operator replace the list")
                .toString();
    }

    /**
     * A JSON patch that replaces each list holding stale entries by the apply's entries, locked on
     * {@code resourceVersion} (a list changed meanwhile fails the patch with 409, and the key is
     * retried on the newer object). Replaced rather than emptied of the stale entries: a Service
     * whose only port is stale would be left without one, which the API server refuses too. The
     * apply that follows makes the entries its own again.
     */
    static String replacement(List<Entry> stale, String resourceVersion) {
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        patch.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", resourceVersion);
        Set<String> replaced = new LinkedHashSet<>();
        for (Entry entry : stale) {
            if (replaced.add(entry.listPointer())) {
                patch.addObject().put("op", "replace").put("path", entry.listPointer()).set("value", entry.wanted());
            }
        }
        return patch.toString();
    }
}
