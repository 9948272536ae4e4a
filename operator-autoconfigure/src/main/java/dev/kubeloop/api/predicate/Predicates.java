package dev.kubeloop.api.predicate;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * The built-in {@link EventPredicate}s, after controller-runtime's {@code predicate} package. Each
 * filters updates only (creates and deletes pass) and lets resyncs pass, except
 * {@link #resourceVersionChanged()}. All are stateless and thread-safe.
 */
public final class Predicates {

    private Predicates() {
    }

    /** Passes every event. */
    public static <T extends HasMetadata> EventPredicate<T> all() {
        return new EventPredicate<>() {
        };
    }

    /** Updates that change {@code metadata.generation}: the API server bumps it on spec changes, not on status writes. */
    public static <T extends HasMetadata> EventPredicate<T> generationChanged() {
        return onUpdate((before, after) -> !Objects.equals(before.getGeneration(), after.getGeneration()));
    }

    /** Updates that change the labels. */
    public static <T extends HasMetadata> EventPredicate<T> labelsChanged() {
        return onUpdate((before, after) -> !sameMap(before.getLabels(), after.getLabels()));
    }

    /** Updates that change the annotations. */
    public static <T extends HasMetadata> EventPredicate<T> annotationsChanged() {
        return onUpdate((before, after) -> !sameMap(before.getAnnotations(), after.getAnnotations()));
    }

    /** Updates that change the finalizers. */
    public static <T extends HasMetadata> EventPredicate<T> finalizersChanged() {
        return onUpdate((before, after) -> !sameList(before.getFinalizers(), after.getFinalizers()));
    }

    /** Updates that set (or change) the deletion timestamp: the object is being deleted. */
    public static <T extends HasMetadata> EventPredicate<T> deletionRequested() {
        return onUpdate((before, after) -> !Objects.equals(before.getDeletionTimestamp(), after.getDeletionTimestamp()));
    }

    /**
     * Updates whose {@code resourceVersion} changed: drops the replays of a periodic resync and
     * nothing else (controller-runtime's {@code ResourceVersionChangedPredicate}).
     */
    public static <T extends HasMetadata> EventPredicate<T> resourceVersionChanged() {
        return new EventPredicate<>() {
            @Override
            public boolean update(T oldObject, T newObject) {
                return !isResync(oldObject, newObject);
            }
        };
    }

    /**
     * The default filter of a reconciler's primary type ({@code @Reconciler(generationAware = true)}):
     * updates that change something a reconcile acts on, i.e. the generation (spec), labels,
     * annotations, finalizers or the deletion timestamp. What it drops are the updates a
     * controller mostly causes itself, status writes above all, which would otherwise reconcile
     * every object once more after each status update. Unlike controller-runtime's
     * {@code GenerationChangedPredicate}, resyncs and metadata changes pass.
     */
    public static <T extends HasMetadata> EventPredicate<T> generationAware() {
        return Predicates.<T>generationChanged().or(labelsChanged()).or(annotationsChanged())
                .or(finalizersChanged()).or(deletionRequested());
    }

    /** True for the update a periodic resync replays: same object, same resourceVersion. */
    public static boolean isResync(HasMetadata oldObject, HasMetadata newObject) {
        return Objects.equals(oldObject.getMetadata().getResourceVersion(),
                newObject.getMetadata().getResourceVersion());
    }

    /** A predicate on updates only; resyncs pass. */
    private static <T extends HasMetadata> EventPredicate<T> onUpdate(BiPredicate<ObjectMeta, ObjectMeta> changed) {
        return new EventPredicate<>() {
            @Override
            public boolean update(T oldObject, T newObject) {
                return isResync(oldObject, newObject) || changed.test(oldObject.getMetadata(), newObject.getMetadata());
            }
        };
    }

    /** Null and empty are the same thing on the wire. */
    private static boolean sameMap(Map<String, String> a, Map<String, String> b) {
        return (a == null || a.isEmpty()) ? (b == null || b.isEmpty()) : a.equals(b);
    }

    private static boolean sameList(List<String> a, List<String> b) {
        return (a == null || a.isEmpty()) ? (b == null || b.isEmpty()) : a.equals(b);
    }
}
