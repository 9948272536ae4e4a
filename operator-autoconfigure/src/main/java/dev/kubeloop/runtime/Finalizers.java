package dev.kubeloop.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * Adds and removes one finalizer with a JSON patch that touches only {@code metadata.finalizers}
 * and is locked on the cached object's resourceVersion: another controller's finalizer added
 * meanwhile makes the patch fail with 409 (and the key is retried against the newer object)
 * instead of being overwritten. Stateless.
 */
final class Finalizers {

    private Finalizers() {
    }

    static boolean has(HasMetadata object, String finalizer) {
        List<String> finalizers = object.getMetadata().getFinalizers();
        return finalizers != null && finalizers.contains(finalizer);
    }

    /** Adds {@code finalizer}; returns the object as stored. */
    static <T extends HasMetadata> T add(KubernetesClient client, T object, String finalizer) {
        List<String> finalizers = object.getMetadata().getFinalizers();
        JsonPatch patch = new JsonPatch().expectResourceVersion(object);
        if (finalizers == null || finalizers.isEmpty()) {
            patch.add("/metadata/finalizers", List.of(finalizer));
        } else {
            patch.add("/metadata/finalizers/-", finalizer);
        }
        return patch.applyTo(client, object);
    }

    /** Removes {@code finalizer} if present; returns the object as stored, or null if nothing changed. */
    static <T extends HasMetadata> T remove(KubernetesClient client, T object, String finalizer) {
        List<String> finalizers = object.getMetadata().getFinalizers();
        int index = finalizers == null ? -1 : finalizers.indexOf(finalizer);
        if (index < 0) {
            return null;
        }
        // The resourceVersion lock keeps the index right: if the list changed, the patch fails.
        return new JsonPatch().expectResourceVersion(object).remove("/metadata/finalizers/" + index)
                .applyTo(client, object);
    }
}
