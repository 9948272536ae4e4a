package dev.kubeloop.runtime.client;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The two per-reconcile touches of an object's content that the runtime makes, done as cheaply as
 * fabric8's serialization allows (see {@code ObjectCopyBenchmark} in the benchmarks module).
 *
 * <p>{@link #deepCopy}: the reconciler gets its own copy of the cached object, which every
 * controller shares. Jackson's token-buffer conversion builds the copy without rendering and
 * re-parsing JSON text, which {@code KubernetesSerialization.clone} does (about 2.5x the time).
 *
 * <p>{@link #status}: the status to write is read from the object's own {@code status} property
 * (custom resources, generic resources, and the built-in types' {@code getStatus()}), instead of
 * converting the whole object to a map to take one entry (about 40x the time). Stateless.
 */
public final class ResourceCopies {

    /** The public no-argument {@code getStatus()} of a built-in type, if it has one. */
    private static final ClassValue<Optional<Method>> STATUS_GETTERS = new ClassValue<>() {
        @Override
        protected Optional<Method> computeValue(Class<?> type) {
            try {
                Method getter = type.getMethod("getStatus");
                return Modifier.isPublic(getter.getDeclaringClass().getModifiers()) ? Optional.of(getter)
                        : Optional.empty();
            } catch (NoSuchMethodException e) {
                return Optional.empty();
            }
        }
    };

    private ResourceCopies() {
    }

    @SuppressWarnings("unchecked")
    public static <T extends HasMetadata> T deepCopy(KubernetesSerialization serialization, T object) {
        return (T) serialization.convertValue(object, object.getClass());
    }

    /**
     * A deep copy of {@code object} without {@code metadata.managedFields}: the form the informer
     * caches keep when they strip them. Server-side apply's bookkeeping is often half of a small
     * object's JSON, so leaving it out halves the copy. {@code object} is restored before this
     * returns, so it must not be shared with another thread while this runs (the writes call it
     * on the response fabric8 just parsed, which nobody else holds yet).
     */
    public static <T extends HasMetadata> T deepCopyWithoutManagedFields(KubernetesSerialization serialization,
            T object) {
        ObjectMeta metadata = object.getMetadata();
        List<ManagedFieldsEntry> managed = metadata == null ? null : metadata.getManagedFields();
        if (managed == null || managed.isEmpty()) {
            return deepCopy(serialization, object);
        }
        metadata.setManagedFields(null);
        try {
            return deepCopy(serialization, object);
        } finally {
            metadata.setManagedFields(managed);
        }
    }

    /** The object's status as it would be serialized, or null if it has none. */
    public static Object status(KubernetesSerialization serialization, HasMetadata object) {
        if (object instanceof CustomResource<?, ?> custom) {
            return custom.getStatus();
        }
        if (object instanceof GenericKubernetesResource generic) {
            return generic.getAdditionalProperties().get("status");
        }
        Optional<Method> getter = STATUS_GETTERS.get(object.getClass());
        if (getter.isPresent()) {
            try {
                return getter.get().invoke(object);
            } catch (IllegalAccessException | InvocationTargetException e) {
                // fall through to the generic way
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = serialization.convertValue(object, Map.class);
        return tree.get("status");
    }
}
