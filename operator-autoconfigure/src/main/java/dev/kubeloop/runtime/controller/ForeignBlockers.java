package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ForeignObjectException;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.Causes;
import dev.kubeloop.runtime.cache.OwnerIndex;
import dev.kubeloop.runtime.handler.EventHandler;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Primaries whose owned apply was refused because a foreign object holds the name
 * ({@link ForeignObjectException}), by that object: when it goes away, or its controller owner
 * or the {@value ControllerWrites#APPLIED_BY} label changes (it may be the primary's to adopt
 * now), the blocked primaries are queued at once, instead of waiting for their backoff, which by
 * then may be minutes. Sits on the owned kinds' informers next to the owner handler.
 *
 * <p>Only what the owned caches see wakes a primary: a sharded replica caches only owned objects
 * labelled with a slot, which a foreign object is not, so there a blocked primary waits for its
 * backoff as before. Other updates of the blocker (its status, its spec) queue nothing: a blocker
 * that changes often would otherwise retry the primary without backoff. A deletion delivered
 * before the failed reconcile is recorded here (while it runs, in the milliseconds after its
 * check) is missed too: that primary waits for its backoff.
 *
 * <p>State ownership: two maps (blocker → primaries, primary → blocker) guarded by this object:
 * workers write them after a reconcile, the owned informers' event threads read and clear them.
 * An entry lasts until its primary's reconcile no longer fails on it, or the blocker goes.
 */
final class ForeignBlockers implements EventHandler<HasMetadata> {

    /** An object in the way: its kind and key (the owned types' kinds are unique per controller). */
    private record Blocker(String kind, ObjectKey key) {
    }

    private final WorkQueue<ObjectKey> queue;
    // guarded by this
    private final Map<Blocker, Set<ObjectKey>> blocked = new HashMap<>();
    // guarded by this
    private final Map<ObjectKey, Blocker> blockers = new HashMap<>();

    ForeignBlockers(WorkQueue<ObjectKey> queue) {
        this.queue = queue;
    }

    /** The foreign object in {@code error}'s cause chain, if any. */
    static Optional<ForeignObjectException> in(Throwable error) {
        return Causes.find(error, ForeignObjectException.class);
    }

    /** The reconcile of {@code primary} failed because of {@code foreign}: wake it when that one moves. */
    synchronized void blocked(ObjectKey primary, ForeignObjectException foreign) {
        Blocker blocker = new Blocker(foreign.kind(), foreign.objectKey());
        Blocker previous = blockers.put(primary, blocker);
        if (previous != null && !previous.equals(blocker)) {
            remove(previous, primary);
        }
        blocked.computeIfAbsent(blocker, b -> new HashSet<>()).add(primary);
    }

    /** {@code primary} no longer fails on a foreign object (or is gone). */
    synchronized void forget(ObjectKey primary) {
        Blocker blocker = blockers.remove(primary);
        if (blocker != null) {
            remove(blocker, primary);
        }
    }

    /** How many primaries wait for an object in their way. */
    synchronized int size() {
        return blockers.size();
    }

    @Override
    public void onAdd(HasMetadata object, boolean initialList) {
        // a blocker the cache did not hold yet changes nothing for the primaries it blocks
    }

    @Override
    public void onUpdate(HasMetadata oldObject, HasMetadata newObject) {
        if (!Objects.equals(controllerUid(oldObject), controllerUid(newObject))
                || !Objects.equals(appliedBy(oldObject), appliedBy(newObject))) {
            wake(newObject);
        }
    }

    @Override
    public void onDelete(HasMetadata object) {
        wake(object);
    }

    private void wake(HasMetadata object) {
        Set<ObjectKey> primaries;
        synchronized (this) {
            primaries = blocked.remove(new Blocker(object.getKind(), ObjectKey.of(object)));
            if (primaries == null) {
                return;
            }
            primaries.forEach(blockers::remove);
        }
        primaries.forEach(queue::add);
    }

    private void remove(Blocker blocker, ObjectKey primary) {
        Set<ObjectKey> primaries = blocked.get(blocker);
        if (primaries != null && primaries.remove(primary) && primaries.isEmpty()) {
            blocked.remove(blocker);
        }
    }

    private static String controllerUid(HasMetadata object) {
        return OwnerIndex.controllerOf(object).map(OwnerReference::getUid).orElse(null);
    }

    private static String appliedBy(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels == null ? null : labels.get(ControllerWrites.APPLIED_BY);
    }
}
