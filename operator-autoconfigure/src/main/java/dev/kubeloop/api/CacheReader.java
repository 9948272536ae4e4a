package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Read access to the caches of one reconciler: its primary type, the types it owns and the types
 * it watches. Reads never call the API server. Objects returned are the caches' own instances,
 * shared with every controller: read them, never modify them.
 *
 * <p>Indexes are the ones the reconciler declared ({@link Watches#index}); a lookup is a map
 * access, whatever the number of cached objects. Values are looked up per namespace, as
 * controller-runtime's field indexes are: {@code byIndex(type, index, "team-a", "db-creds")}
 * finds the objects in namespace {@code team-a} whose index contains {@code db-creds}; a null
 * namespace looks in all namespaces (and is the only choice for cluster-scoped types).
 *
 * <p>In a reconcile ({@code ReconcileContext.caches()}) every read sees the reconciler's own writes
 * made through the context, before the informer delivers them: a list includes the objects it
 * created and leaves out those it deleted (see docs/writing.md, read-your-writes).
 *
 * <p>A type cached more than once (owned, and watched with a label selector or in other
 * namespaces: one informer each) is read from all its caches: {@link #get} finds the object in
 * whichever cache holds it, {@link #list} and {@link #byIndex} return the union, one object per
 * key; where two caches hold one object, the newer resourceVersion. So a reconcile mapped from a
 * watched object finds it, whichever informer delivered it first.
 *
 * <p>Thread-safe.
 */
public interface CacheReader {

    /**
     * The cached object of {@code type} with {@code key}, if it is cached.
     *
     * @throws IllegalArgumentException if this reconciler does not cache {@code type}
     */
    <R extends HasMetadata> Optional<R> get(Class<R> type, ObjectKey key);

    /**
     * The cached objects of {@code type} in {@code namespace} (null: all namespaces).
     *
     * @throws IllegalArgumentException if this reconciler does not cache {@code type}
     */
    <R extends HasMetadata> List<R> list(Class<R> type, @Nullable String namespace);

    /**
     * The cached objects of {@code type} in {@code namespace} (null: all namespaces) that carry
     * every label of {@code labels} with its value: what a label selector's {@code matchLabels}
     * selects (controller-runtime's {@code client.MatchingLabels}). It filters the namespace's
     * objects one by one; a lookup made often in a large cache is a job for an index on the label.
     *
     * @throws IllegalArgumentException if this reconciler does not cache {@code type}
     */
    default <R extends HasMetadata> List<R> list(Class<R> type, @Nullable String namespace, Map<String, String> labels) {
        List<R> result = new ArrayList<>();
        for (R object : list(type, namespace)) {
            if (carries(object, labels)) {
                result.add(object);
            }
        }
        return result;
    }

    /** Whether {@code object} carries every label of {@code labels} with its value. */
    private static boolean carries(HasMetadata object, Map<String, String> labels) {
        Map<String, String> own = object.getMetadata().getLabels();
        for (Map.Entry<String, String> label : labels.entrySet()) {
            if (own == null || !Objects.equals(own.get(label.getKey()), label.getValue())) {
                return false;
            }
        }
        return true;
    }

    /**
     * The cached objects of {@code type} in {@code namespace} (null: all namespaces) whose index
     * {@code index} contains {@code value}.
     *
     * @throws IllegalArgumentException if this reconciler does not cache {@code type} or declared no
     *     such index on it
     */
    <R extends HasMetadata> List<R> byIndex(Class<R> type, String index, @Nullable String namespace, String value);
}
