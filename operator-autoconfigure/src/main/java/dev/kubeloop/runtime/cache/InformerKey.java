package dev.kubeloop.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * What one informer lists and watches: a type, one namespace (null: all namespaces, or a
 * cluster-scoped type), a label selector and a field selector ("" for none), and whether it keeps
 * whole objects or only their metadata. Registrations with equal keys share one informer, hence
 * one watch; full and metadata-only informers of one type are kept apart.
 */
record InformerKey(Class<? extends HasMetadata> type, String namespace, String labelSelector, String fieldSelector,
        boolean metadataOnly) {

    InformerKey {
        Objects.requireNonNull(type, "type");
        labelSelector = labelSelector == null ? "" : labelSelector;
        fieldSelector = fieldSelector == null ? "" : fieldSelector;
    }

    /** For messages: {@code widgets.kubeloop.dev in namespace a with labels tier=web (metadata only)}. */
    String describe() {
        String scope = namespace == null ? "in all namespaces" : "in namespace " + namespace;
        return HasMetadata.getFullResourceName(type) + " " + scope
                + (labelSelector.isEmpty() ? "" : " with labels " + labelSelector)
                + (fieldSelector.isEmpty() ? "" : " with fields " + fieldSelector)
                + (metadataOnly ? " (metadata only)" : "");
    }
}
