package dev.kubeloop.runtime.handler;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.predicate.Predicates;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.cache.OwnerIndex;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.Objects;
import java.util.Optional;

/**
 * Maps an owned object's events to the key of its controller owner (controller-runtime's
 * {@code EnqueueRequestForOwner} with {@code OnlyControllerOwner}): the owner reference with
 * {@code controller: true} whose kind and API group (any version) are the primary type's.
 * Objects without such a reference are ignored. An update that moves an object to another owner
 * enqueues both owners. Owner references never cross namespaces, so the owner's key takes the
 * owned object's namespace (none for a cluster-scoped primary). Stateless apart from the queue.
 */
public final class EnqueueRequestForOwner implements EventHandler<HasMetadata> {

    private final WorkQueue<ObjectKey> queue;
    private final String ownerGroup;
    private final String ownerKind;
    private final boolean ownerNamespaced;

    public EnqueueRequestForOwner(WorkQueue<ObjectKey> queue, Class<? extends HasMetadata> ownerType) {
        this.queue = queue;
        this.ownerGroup = Objects.requireNonNullElse(HasMetadata.getGroup(ownerType), "");
        this.ownerKind = HasMetadata.getKind(ownerType);
        this.ownerNamespaced = Namespaced.class.isAssignableFrom(ownerType);
    }

    @Override
    public void onAdd(HasMetadata object, boolean initialList) {
        ownerKey(object).ifPresent(key ->
                queue.add(key, initialList ? WorkQueue.LOW_PRIORITY : WorkQueue.NORMAL_PRIORITY));
    }

    @Override
    public void onUpdate(HasMetadata oldObject, HasMetadata newObject) {
        int priority = Predicates.isResync(oldObject, newObject) ? WorkQueue.LOW_PRIORITY : WorkQueue.NORMAL_PRIORITY;
        Optional<ObjectKey> oldOwner = ownerKey(oldObject);
        Optional<ObjectKey> newOwner = ownerKey(newObject);
        newOwner.ifPresent(key -> queue.add(key, priority));
        oldOwner.filter(key -> !newOwner.equals(Optional.of(key))).ifPresent(key -> queue.add(key, priority));
    }

    @Override
    public void onDelete(HasMetadata object) {
        ownerKey(object).ifPresent(queue::add);
    }

    Optional<ObjectKey> ownerKey(HasMetadata object) {
        return OwnerIndex.controllerOf(object)
                .filter(this::pointsAtPrimaryType)
                .map(owner -> new ObjectKey(ownerNamespaced ? object.getMetadata().getNamespace() : null,
                        owner.getName()));
    }

    private boolean pointsAtPrimaryType(OwnerReference owner) {
        return ownerKind.equals(owner.getKind()) && ownerGroup.equals(OwnerIndex.groupOf(owner.getApiVersion()))
                && owner.getName() != null;
    }
}
