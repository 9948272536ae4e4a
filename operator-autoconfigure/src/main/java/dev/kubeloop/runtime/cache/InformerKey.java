package dev.kubeloop.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * What one informer lists and watches: a type, one namespace (null: all namespaces, or a
 * cluster-scoped type), a label selector and a field selector ("" for none), whether it keeps
 * whole objects or only their metadata, and, in a sharded scope, the bucket of the
 * {@link ShardLayout} it covers ({@link #UNSHARDED} otherwise). Registrations with equal keys share
 * one informer, hence one watch; full and metadata-only informers of one type are kept apart.
 */
record InformerKey(Class<? extends HasMetadata> type, String namespace, String labelSelector, String fieldSelector,
        boolean metadataOnly, int bucket) {

    /** The bucket of an informer that is not sharded. */
    static final int UNSHARDED = -1;

    InformerKey {
        Objects.requireNonNull(type, "type");
        labelSelector = labelSelector == null ? "" : labelSelector;
        fieldSelector = fieldSelector == null ? "" : fieldSelector;
    }

    boolean sharded() {
        return bucket != UNSHARDED;
    }

    /** For messages: {@code widgets.kubeloop.dev in namespace a with labels tier=web (metadata only), bucket 3}. */
    String describe() {
        String scope = namespace == null ? "in all namespaces" : "in namespace " + namespace;
        return HasMetadata.getFullResourceName(type) + " " + scope
                + (labelSelector.isEmpty() ? "" : " with labels " + labelSelector)
                + (fieldSelector.isEmpty() ? "" : " with fields " + fieldSelector)
                + (metadataOnly ? " (metadata only)" : "")
                + (sharded() ? ", bucket " + bucket : "");
    }
}
