package dev.kubeloop.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Recognises the updates of finalizers that no admission webhook may refuse: those that only let an
 * object being deleted go (validation never blocks a deletion), and those that only add a
 * finalizer to an object not being deleted (how a controller makes sure it sees the deletion).
 *
 * <p>Letting go: validation never blocks a deletion. Such an update is how a deletion completes: a
 * controller (or an admin, by hand) removes its finalizer; the garbage collector removes owner
 * references. Checking the object's spec then would hold an object stored before a stricter rule
 * (or while the webhook was off) for ever, and with it its namespace and its CRD.
 *
 * <p>The update lets go when the old object has a {@code metadata.deletionTimestamp} and the new
 * one differs from it only in:
 * <ul>
 *   <li>{@code metadata.finalizers} and {@code metadata.ownerReferences}, each keeping a subset of
 *       the old entries (removing; the API server refuses new finalizers on an object being
 *       deleted anyway, and an added owner reference is no letting go);
 *   <li>what the API server writes itself and a client cannot set: {@code metadata.managedFields},
 *       {@code resourceVersion}, {@code generation};
 *   <li>{@code status} (on a resource with a status subresource the API server keeps the old one;
 *       either way it is an observation, not a request).
 * </ul>
 * Everything else (spec, labels, annotations) still goes to the webhook: a user who edits the spec
 * of an object being deleted is validated as ever.
 *
 * <p>Adding a finalizer: an update of an object not being deleted that keeps every finalizer it had,
 * adds at least one, and changes nothing else but what the API server writes and {@code status}.
 * Without it, an object stored before a stricter rule (or while the webhook was off) never gets its
 * controller's finalizer, so the controller never reconciles it, and never says why in its status:
 * the reconcile that would report the invalid spec as a condition waits behind the finalizer.
 * Removing a finalizer from an object not being deleted is still validated: a validator may protect
 * one (as Kubernetes' own protection finalizers are). Stateless.
 */
final class FinalizerUpdates {

    private static final Set<String> SERVER_METADATA = Set.of("managedFields", "resourceVersion", "generation");
    private static final List<String> RELEASED_LISTS = List.of("finalizers", "ownerReferences");

    private FinalizerUpdates() {
    }

    /** Whether the update from {@code oldObject} to {@code object} only lets an object being deleted go. */
    static boolean onlyLetsGo(JsonNode oldObject, JsonNode object) {
        if (!(oldObject instanceof ObjectNode before) || !(object instanceof ObjectNode after)
                || !before.path("metadata").hasNonNull("deletionTimestamp")) {
            return false;
        }
        for (String list : RELEASED_LISTS) {
            if (!subset(after.path("metadata").path(list), before.path("metadata").path(list))) {
                return false;
            }
        }
        return withoutLetGoFields(before).equals(withoutLetGoFields(after));
    }

    /**
     * Whether the update from {@code oldObject} to {@code object} only adds finalizers to an object
     * not being deleted.
     */
    static boolean onlyAddsFinalizers(JsonNode oldObject, JsonNode object) {
        if (!(oldObject instanceof ObjectNode before) || !(object instanceof ObjectNode after)
                || before.path("metadata").hasNonNull("deletionTimestamp")) {
            return false;
        }
        JsonNode had = before.path("metadata").path("finalizers");
        JsonNode has = after.path("metadata").path("finalizers");
        if (!subset(had, has) || subset(has, had)) {
            return false; // one it had is gone, or none was added
        }
        ObjectNode beforeRest = withoutLetGoFields(before);
        ObjectNode afterRest = withoutLetGoFields(after);
        // owner references are not a finalizer: they stay as they were
        return beforeRest.equals(afterRest) && before.path("metadata").path("ownerReferences")
                .equals(after.path("metadata").path("ownerReferences"));
    }

    /** Every entry of {@code smaller} (absent or null: none) is in {@code larger}. */
    private static boolean subset(JsonNode smaller, JsonNode larger) {
        if (smaller.isMissingNode() || smaller.isNull()) {
            return true;
        }
        if (!smaller.isArray()) {
            return false;
        }
        if (!larger.isArray()) {
            return smaller.isEmpty(); // an empty list is no entry
        }
        List<JsonNode> remaining = new ArrayList<>();
        larger.forEach(remaining::add);
        for (JsonNode entry : smaller) {
            if (!remaining.remove(entry)) {
                return false;
            }
        }
        return true;
    }

    private static ObjectNode withoutLetGoFields(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        copy.remove("status");
        if (copy.get("metadata") instanceof ObjectNode metadata) {
            metadata.remove(SERVER_METADATA);
            metadata.remove(RELEASED_LISTS);
        }
        return copy;
    }
}
