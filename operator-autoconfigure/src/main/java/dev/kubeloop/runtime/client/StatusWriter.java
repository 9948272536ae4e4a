package dev.kubeloop.runtime.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Writes an object's status through the {@code /status} subresource in one request: a JSON patch
 * that replaces {@code /status} as a whole (so fields the reconciler cleared are removed, which a
 * merge patch could not do), locked on the object's resourceVersion (a concurrent change is a 409,
 * which the runtime turns into a quiet requeue). The API server ignores everything but status on
 * this subresource, and the patch carries nothing else. Stateless.
 */
public final class StatusWriter {

    private StatusWriter() {
    }

    /** Writes {@code resource}'s status as {@code fieldManager} (null: the client's default). */
    public static <T extends HasMetadata> T write(KubernetesClient client, T resource, String fieldManager) {
        if (resource == null || resource.getMetadata() == null || resource.getMetadata().getName() == null) {
            throw new IllegalArgumentException("updateStatus needs an object with metadata.name");
        }
        Object status = ResourceCopies.status(client.getKubernetesSerialization(), resource);
        if (status == null) {
            throw new IllegalArgumentException(resource.getKind() + " " + resource.getMetadata().getName()
                    + " has no status to write");
        }
        return new JsonPatch().fieldManager(fieldManager).expectResourceVersion(resource).add("/status", status)
                .applyToStatus(client, resource);
    }
}
