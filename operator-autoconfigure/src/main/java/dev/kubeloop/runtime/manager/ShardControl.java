package dev.kubeloop.runtime.manager;

import dev.kubeloop.runtime.cache.ShardLayout;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What a sharding {@link WorkGate} may do with the caches and queues of the manager it gates:
 * start and stop the informers of one bucket (every sharded scope's, primaries and owned types),
 * queue a bucket's primaries, and read what it needs to label primaries and to report shares.
 * Thread-safe; the gate calls it from its own threads.
 */
public interface ShardControl {

    /** How the manager's sharded caches are split. */
    ShardLayout layout();

    /**
     * Starts the bucket's informers (their first list: the API server's watch cache, like any
     * informer's); completes when all have synced, exceptionally if one failed.
     */
    CompletableFuture<Void> startBucket(int bucket);

    /** Stops the bucket's informers; their objects leave the caches without events. Idempotent. */
    void stopBucket(int bucket);

    /** Queues every cached primary of the bucket, in every controller, at low priority. */
    void enqueueBucket(int bucket);

    /** The primary scope of every controller, for writing slot labels on primaries that lack them. */
    List<PrimaryScope> primaries();

    /** Primaries cached now, by controller: this replica's share. */
    Map<String, Integer> cachedPrimaries();

    /**
     * One controller's primaries: their type, namespaces (empty: all) and label selector ("": every
     * object).
     */
    record PrimaryScope(String controller, Class<? extends HasMetadata> type, Set<String> namespaces,
            String labelSelector) {
    }
}
