package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.watch.IndexFunction;
import dev.kubeloop.runtime.cache.OwnerIndex;
import dev.kubeloop.runtime.client.WriteTracker;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What a reconcile reads: the controller's caches ({@link ControllerCaches}) as its own writes
 * left them, for every read, gets and lists alike. A list (of a namespace, by index, by labels, of
 * the owned objects) gets the objects this controller created or changed to match and the
 * informer has not delivered yet, loses those it deleted or changed not to match, and has the
 * written version of the others ({@link WriteTracker#merge}); so a reconcile that applies a child
 * and then counts its children for the status counts it, and so does the next reconcile, before the
 * child's event arrives. That event is an echo and queues nothing (controller-runtime's reconcilers
 * count on it instead; see docs/writing.md).
 *
 * <p>Criteria are tested on written objects only, as the informer would index them: the namespace,
 * the declared index function, the labels, the controller owner reference. A list with no write of
 * its type pending is the cache's own list, not a copy.
 *
 * <p>Every list is a new one, the caller's: the caches build one per read ({@code ResourceCache},
 * {@link KindViews}) and so does the merge, so nothing shared needs guarding and none is wrapped
 * (the API promises read-only objects, not read-only lists; {@code owned()} keeps its historical
 * unmodifiable list, {@link DefaultReconcileContext}).
 *
 * <p>Immutable and thread-safe (one per controller, shared by its workers); the tracker and the
 * caches are thread-safe.
 */
final class ReadYourWritesReader implements CacheReader {

    private final ControllerCaches caches;
    private final WriteTracker tracker;
    /** The declared index functions, by type and name, to index a written object as the informer will. */
    private final Map<Class<?>, Map<String, IndexFunction<?>>> indexes = new HashMap<>();

    ReadYourWritesReader(ControllerCaches caches, WriteTracker tracker, WatchDeclarations<?> declarations) {
        this.caches = caches;
        this.tracker = tracker;
        for (WatchDeclarations.Index<?> index : declarations.indexes()) {
            indexes.computeIfAbsent(index.type(), type -> new HashMap<>()).put(index.name(), index.function());
        }
    }

    @Override
    public <R extends HasMetadata> Optional<R> get(Class<R> type, ObjectKey key) {
        R cached = caches.get(type, key).orElse(null);
        return tracker.fresher(new WriteTracker.Ref(type, key.namespace(), key.name()), cached);
    }

    @Override
    public <R extends HasMetadata> List<R> list(Class<R> type, String namespace) {
        return merged(type, () -> caches.list(type, namespace), object -> inNamespace(object, namespace));
    }

    @Override
    public <R extends HasMetadata> List<R> byIndex(Class<R> type, String index, String namespace, String value) {
        Supplier<List<R>> read = () -> caches.byIndex(type, index, namespace, value);
        var declared = indexes.get(type);
        @SuppressWarnings("unchecked")
        IndexFunction<? super R> function = declared == null ? null : (IndexFunction<? super R>) declared.get(index);
        if (function == null) {
            return read.get(); // throws, naming the undeclared index
        }
        return merged(type, read, object -> inNamespace(object, namespace) && indexedUnder(function, object, value));
    }

    /** The objects of {@code type} whose controller owner reference carries {@code ownerUid}. */
    <R extends HasMetadata> List<R> owned(Class<R> type, String ownerUid) {
        Predicate<R> ownedBy = object -> OwnerIndex.controllerOf(object)
                .filter(owner -> ownerUid.equals(owner.getUid())).isPresent();
        // the index guarantees the owner of cached objects; tested on written ones only
        return merged(type, () -> caches.cache(type).byIndex(OwnerIndex.NAME, ownerUid), ownedBy);
    }

    /** {@code read} merged with this controller's writes, taken before it (see {@link WriteTracker#merge}). */
    private <R extends HasMetadata> List<R> merged(Class<R> type, Supplier<List<R>> read, Predicate<R> matches) {
        return tracker.merge(type, read, matches,
                ref -> caches.find(type, ObjectKey.of(ref.namespace(), ref.name())).orElse(null));
    }

    private static boolean inNamespace(HasMetadata object, String namespace) {
        return namespace == null || namespace.equals(object.getMetadata().getNamespace());
    }

    private static <R> boolean indexedUnder(IndexFunction<? super R> function, R object, String value) {
        Collection<String> values = function.values(object);
        return values != null && values.stream().anyMatch(v -> Objects.equals(v, value));
    }
}
