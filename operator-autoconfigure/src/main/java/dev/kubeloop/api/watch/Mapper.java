package dev.kubeloop.api.watch;

import dev.kubeloop.api.CacheReader;
import dev.kubeloop.api.ObjectKey;
import java.util.Collection;

/**
 * Maps a watched object to the keys of the primaries that must be reconciled because it changed
 * (controller-runtime's {@code handler.EnqueueRequestsFromMapFunc}, JOSDK's secondary-to-primary
 * mapper). On an update it is called for the old and the new object, so that a primary that no
 * longer refers to the object is reconciled too.
 *
 * <p>It runs on the informer's event thread, for every event of the watched type: it must be
 * cheap and must not block. Read the caches ({@link CacheReader}), preferably through an index
 * ({@link Mappers#byIndex}), never the API server, and never scan every primary when an index can
 * answer. It must be thread-safe. A mapper that throws drops the event and is logged.
 *
 * @param <R> the watched type
 */
@FunctionalInterface
public interface Mapper<R> {

    /**
     * @param object the watched object (with only its metadata for a metadata-only watch)
     * @param caches read access to the reconciler's caches and indexes
     * @return the primaries' keys, possibly none; never null
     */
    Collection<ObjectKey> map(R object, CacheReader caches);
}
