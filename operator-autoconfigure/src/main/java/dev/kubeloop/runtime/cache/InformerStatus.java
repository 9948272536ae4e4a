package dev.kubeloop.runtime.cache;

import java.time.Instant;

/**
 * A snapshot of one shared informer: what it lists and watches, and how its cache is doing.
 * Immutable.
 *
 * @param resource the resource's full name, e.g. {@code widgets.kubeloop.dev} or {@code configmaps}
 * @param group the API group; empty for the core group
 * @param version the API version
 * @param kind the kind
 * @param namespace the namespace watched; null for all namespaces (and for cluster-scoped types)
 * @param labelSelector the label selector; empty for none
 * @param fieldSelector the field selector; empty for none
 * @param metadataOnly whether it caches only the objects' metadata
 * @param optional whether its type may be absent (it then waits for it)
 * @param waiting whether it is optional and waits for its type to be served (its cache is empty)
 * @param started whether its informer is running
 * @param synced whether its first list has completed (it stays true afterwards)
 * @param watching whether its watch is currently open
 * @param cachedObjects how many objects its cache holds
 * @param watchRestarts how often it had to list and watch again after its first list, because its
 *     watch expired (HTTP 410 Gone) or failed and fabric8 retried
 * @param failure why it stopped for good, if it did (fabric8 does not retry every error); null otherwise
 * @param bucket in a sharded scope, the bucket of the ring it caches (its label selector then ends
 *     with the bucket's slots); -1 when it is not sharded
 * @param listWatchFailingSince since when its list/watch fails (it has not been watching for a few
 *     seconds: the API server is unreachable, the resource is no longer served, access was revoked;
 *     fabric8 keeps retrying); null while it works
 * @param listWatchFailure why its list/watch fails, as when it started failing; null while it works
 * @param listWatchFailures how often its list/watch started failing
 */
public record InformerStatus(String resource, String group, String version, String kind, String namespace,
        String labelSelector, String fieldSelector, boolean metadataOnly, boolean optional, boolean waiting,
        boolean started, boolean synced, boolean watching, int cachedObjects, long watchRestarts, String failure,
        int bucket, Instant listWatchFailingSince, String listWatchFailure, long listWatchFailures) {

    /** True while its list/watch fails: its cache is not following the API server, fabric8 retries. */
    public boolean listWatchFailing() {
        return listWatchFailingSince != null;
    }

    /** Whether it caches one bucket of a sharded scope. */
    public boolean sharded() {
        return bucket >= 0;
    }

    /** True if the informer stopped after an error and its cache no longer follows the API server. */
    public boolean failed() {
        return failure != null;
    }

    /** True if its cache is as ready as it can be: synced, or waiting for an optional type. */
    public boolean ready() {
        return synced || waiting;
    }

    /** For messages: {@code widgets.kubeloop.dev in namespace a with labels tier=web (metadata only)}. */
    public String describe() {
        String scope = namespace == null ? "in all namespaces" : "in namespace " + namespace;
        return resource + " " + scope + (labelSelector.isEmpty() ? "" : " with labels " + labelSelector)
                + (fieldSelector.isEmpty() ? "" : " with fields " + fieldSelector)
                + (metadataOnly ? " (metadata only)" : "") + (sharded() ? ", bucket " + bucket : "");
    }
}
