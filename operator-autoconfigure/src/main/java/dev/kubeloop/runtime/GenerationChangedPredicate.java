package dev.kubeloop.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Lets a primary's update through only when something a reconcile acts on changed: the generation
 * (the API server bumps it on spec changes), labels, annotations, finalizers or the deletion
 * timestamp. What it skips are the updates a controller mostly causes itself: status writes and
 * other metadata-only churn, which would otherwise reconcile every object once more after every
 * status update.
 *
 * <p>Unlike controller-runtime's {@code GenerationChangedPredicate}, resyncs (same
 * resourceVersion) pass, so a configured resync period still reconciles every object; and the
 * finalizer and label/annotation changes pass, as the issue requires. Stateless.
 */
final class GenerationChangedPredicate<T extends HasMetadata> implements EventPredicate<T> {

    @Override
    public boolean update(T oldObject, T newObject) {
        if (EventHandler.isResync(oldObject, newObject)) {
            return true;
        }
        ObjectMeta before = oldObject.getMetadata();
        ObjectMeta after = newObject.getMetadata();
        return !Objects.equals(before.getGeneration(), after.getGeneration())
                || !Objects.equals(before.getDeletionTimestamp(), after.getDeletionTimestamp())
                || !sameMap(before.getLabels(), after.getLabels())
                || !sameMap(before.getAnnotations(), after.getAnnotations())
                || !sameList(before.getFinalizers(), after.getFinalizers());
    }

    /** Null and empty are the same thing on the wire. */
    private static boolean sameMap(Map<String, String> a, Map<String, String> b) {
        return (a == null || a.isEmpty()) ? (b == null || b.isEmpty()) : a.equals(b);
    }

    private static boolean sameList(List<String> a, List<String> b) {
        return (a == null || a.isEmpty()) ? (b == null || b.isEmpty()) : a.equals(b);
    }
}
