package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;

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
    <R extends HasMetadata> List<R> list(Class<R> type, String namespace);

    /**
     * The cached objects of {@code type} in {@code namespace} (null: all namespaces) whose index
     * {@code index} contains {@code value}.
     *
     * @throws IllegalArgumentException if this reconciler does not cache {@code type} or declared no
     *     such index on it
     */
    <R extends HasMetadata> List<R> byIndex(Class<R> type, String index, String namespace, String value);
}
