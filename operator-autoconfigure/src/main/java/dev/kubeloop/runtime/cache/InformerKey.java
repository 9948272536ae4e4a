package dev.kubeloop.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * What one informer lists and watches: a type, one namespace (null: all namespaces, or a
 * cluster-scoped type) and a label selector ("" for none). Registrations with equal keys share
 * one informer, hence one watch.
 */
record InformerKey(Class<? extends HasMetadata> type, String namespace, String labelSelector) {

    InformerKey {
        Objects.requireNonNull(type, "type");
        labelSelector = labelSelector == null ? "" : labelSelector;
    }

    /** For messages: {@code widgets.kubeloop.dev in namespace a with labels tier=web}. */
    String describe() {
        String scope = namespace == null ? "in all namespaces" : "in namespace " + namespace;
        return HasMetadata.getFullResourceName(type) + " " + scope
                + (labelSelector.isEmpty() ? "" : " with labels " + labelSelector);
    }
}
