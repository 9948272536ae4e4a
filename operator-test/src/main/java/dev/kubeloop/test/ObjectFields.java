package dev.kubeloop.test;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;

/** Reads fields of any resource type through fabric8's own serialization. */
final class ObjectFields {

    private ObjectFields() {
    }

    /** {@code status.observedGeneration}, or null if the object has none. */
    static Object observedGeneration(KubernetesClient client, HasMetadata object) {
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = client.getKubernetesSerialization().convertValue(object, Map.class);
        return tree.get("status") instanceof Map<?, ?> status ? status.get("observedGeneration") : null;
    }
}
