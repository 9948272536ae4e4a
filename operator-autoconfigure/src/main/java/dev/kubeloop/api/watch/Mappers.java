package dev.kubeloop.api.watch;

import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.ObjectKey;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/** Ready-made {@link Mapper}s. Each is stateless and thread-safe. */
public final class Mappers {

    private Mappers() {
    }

    /**
     * The most common relation: "the primaries whose index {@code index} contains this object's
     * name", in the object's namespace (all namespaces when the primary type is cluster-scoped).
     * With {@code watches.index(Website.class, "spec.tls.secretName", site -> ...)}, a Secret's
     * change reconciles exactly the Websites that name it, found through the index, never by
     * scanning every Website.
     *
     * <p>The index must be declared on {@code primaryType} by the same reconciler; start-up fails
     * otherwise.
     */
    public static <P extends HasMetadata> ByIndex<P> byIndex(Class<P> primaryType, String index) {
        return new ByIndex<>(primaryType, index);
    }

    /**
     * The key {@code keyOf} computes from the object, if any: for objects that name their primary
     * themselves (a label or an annotation holding its name, say).
     */
    public static <R> Mapper<R> toKey(Function<? super R, Optional<ObjectKey>> keyOf) {
        Objects.requireNonNull(keyOf, "keyOf");
        return (object, caches) -> keyOf.apply(object).map(List::of).orElse(List.of());
    }

    /**
     * {@link #byIndex}'s mapper. Exposes its primary type and index so that the runtime can check
     * at start-up that the index exists.
     *
     * @param primaryType the reconciler's primary type
     * @param index the index on it whose values are the watched objects' names
     */
    public record ByIndex<P extends HasMetadata>(Class<P> primaryType, String index) implements Mapper<HasMetadata> {

        public ByIndex {
            Objects.requireNonNull(primaryType, "primaryType");
            Objects.requireNonNull(index, "index");
        }

        @Override
        public List<ObjectKey> map(HasMetadata object, CacheReader caches) {
            String namespace = Namespaced.class.isAssignableFrom(primaryType) ? object.getMetadata().getNamespace()
                    : null;
            List<P> referrers = caches.byIndex(primaryType, index, namespace, object.getMetadata().getName());
            List<ObjectKey> keys = new ArrayList<>(referrers.size());
            for (P referrer : referrers) {
                keys.add(ObjectKey.of(referrer));
            }
            return keys;
        }
    }
}
