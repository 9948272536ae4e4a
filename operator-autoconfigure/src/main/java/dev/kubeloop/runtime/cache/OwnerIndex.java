package dev.kubeloop.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.List;
import java.util.Optional;

/**
 * The informer index from a controller owner's uid to the objects it controls, so that
 * "the ConfigMaps this Website owns" is a map lookup instead of a scan of every cached ConfigMap.
 * Only the controller reference counts ({@code controller: true}; Kubernetes allows one per
 * object), matching what the handler package's {@code EnqueueRequestForOwner} maps events to. Stateless.
 */
public final class OwnerIndex {

    public static final String NAME = "kubeloop.dev/controller-owner-uid";

    private OwnerIndex() {
    }

    /** The index function: the uid of the object's controller owner, if it has one. */
    public static List<String> controllerOwnerUid(HasMetadata object) {
        return controllerOf(object).map(OwnerReference::getUid).filter(uid -> uid != null).map(List::of)
                .orElse(List.of());
    }

    /** The object's owner reference with {@code controller: true}, if any. */
    public static Optional<OwnerReference> controllerOf(HasMetadata object) {
        if (object.getMetadata() == null || object.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        for (OwnerReference reference : object.getMetadata().getOwnerReferences()) {
            if (Boolean.TRUE.equals(reference.getController())) {
                return Optional.of(reference);
            }
        }
        return Optional.empty();
    }

    /** The API group of an {@code apiVersion}: {@code apps} for {@code apps/v1}, "" for {@code v1}. */
    public static String groupOf(String apiVersion) {
        if (apiVersion == null) {
            return "";
        }
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
