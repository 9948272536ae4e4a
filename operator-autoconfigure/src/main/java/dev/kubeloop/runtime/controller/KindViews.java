package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.cache.ResourceCache;
import dev.kubeloop.runtime.client.ResourceVersions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The caches one controller has of one kind, read as one: its primary or owned cache, and the
 * caches of its watches of the kind, each with its own scope (a watch with a label selector is
 * another informer). A reconcile mapped from a watched object must find that object whichever
 * informer delivered it first, so every read answers from the union of the views: {@link #get}
 * from the view that holds the object, {@link #list} and {@link #byIndex} one object per key. When
 * two views hold one object (their scopes overlap, and their informers deliver its changes at
 * different moments), the newer resourceVersion wins, as a reader of either would want.
 *
 * <p>State ownership: filled by {@link ControllerCaches#add} during registration, before any
 * informer starts; read-only afterwards (published with the {@code ControllerCaches}).
 *
 * @param <R> the kind
 */
final class KindViews<R extends HasMetadata> {

    private final List<ResourceCache<R>> views = new ArrayList<>();

    void add(ResourceCache<R> view) {
        if (!views.contains(view)) {
            views.add(view);
        }
    }

    /** The view registered first: the primary's or the owned cache (the one with the owner index). */
    ResourceCache<R> first() {
        return views.get(0);
    }

    int size() {
        return views.size();
    }

    Optional<R> get(ObjectKey key) {
        R found = null;
        for (ResourceCache<R> view : views) {
            R candidate = view.get(key).orElse(null);
            if (candidate != null && (found == null || newer(candidate, found))) {
                found = candidate;
            }
        }
        return Optional.ofNullable(found);
    }

    List<R> list(String namespace) {
        return union(view -> view.list(namespace));
    }

    List<R> byIndex(String qualifiedIndex, String namespace, String value) {
        return union(view -> view.byIndex(qualifiedIndex, namespace, value));
    }

    private List<R> union(Function<ResourceCache<R>, List<R>> read) {
        if (views.size() == 1) {
            return read.apply(views.get(0));
        }
        Map<ObjectKey, R> byKey = new LinkedHashMap<>();
        for (ResourceCache<R> view : views) {
            for (R object : read.apply(view)) {
                byKey.merge(ObjectKey.of(object), object, (held, other) -> newer(other, held) ? other : held);
            }
        }
        return new ArrayList<>(byKey.values());
    }

    private static boolean newer(HasMetadata candidate, HasMetadata held) {
        return ResourceVersions.compare(candidate.getMetadata().getResourceVersion(),
                held.getMetadata().getResourceVersion()) == ResourceVersions.Order.NEWER;
    }
}
