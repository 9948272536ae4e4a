package dev.kubeloop.runtime.controller;

import dev.kubeloop.runtime.client.ResourceCopies;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conditions of a primary's status, for the conditions the runtime sets itself (see
 * {@link FailureStatus}): a status class "has conditions" when it has a public
 * {@code List<Condition> getConditions()} (fabric8's {@link Condition}, what
 * {@code dev.kubeloop.api.conditions.Conditions} works on) and, for a status without any yet, a
 * {@code setConditions(List)}. Anything else (no status, another shape) has none: the runtime
 * then sets no condition. Stateless; the accessors found per class are cached.
 */
final class StatusConditions {

    private record Accessors(Method getter, Method setter) {
    }

    private static final ClassValue<Optional<Accessors>> ACCESSORS = new ClassValue<>() {
        @Override
        protected Optional<Accessors> computeValue(Class<?> type) {
            try {
                if (!Modifier.isPublic(type.getModifiers())) {
                    return Optional.empty();
                }
                Method getter = type.getMethod("getConditions");
                Type returned = getter.getGenericReturnType();
                if (!(returned instanceof ParameterizedType list) || !List.class.equals(list.getRawType())
                        || !Condition.class.equals(list.getActualTypeArguments()[0])) {
                    return Optional.empty();
                }
                Method setter = null;
                try {
                    setter = type.getMethod("setConditions", List.class);
                } catch (NoSuchMethodException e) {
                    // a status that always has a list needs none
                }
                return Optional.of(new Accessors(getter, setter));
            } catch (NoSuchMethodException e) {
                return Optional.empty();
            }
        }
    };

    private StatusConditions() {
    }

    /** A custom resource without a status yet gets an empty one of its status class, if it has one. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object newStatus(CustomResource<?, ?> custom) {
        Class<?> type = statusClass(custom.getClass());
        if (type == null || type == Void.class || !ACCESSORS.get(type).isPresent()) {
            return null;
        }
        try {
            Object status = type.getConstructor().newInstance();
            ((CustomResource) custom).setStatus(status);
            return status;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The class {@code type} gives {@code CustomResource}'s status type argument, if a class. */
    private static Class<?> statusClass(Class<?> type) {
        for (Class<?> c = type; c != null && c != CustomResource.class; c = c.getSuperclass()) {
            if (c.getGenericSuperclass() instanceof ParameterizedType parameterized
                    && parameterized.getRawType() == CustomResource.class
                    && parameterized.getActualTypeArguments()[1] instanceof Class<?> status) {
                return status;
            }
        }
        return null;
    }

    /**
     * The live, mutable list of {@code object}'s status conditions (created empty when the status
     * has none yet, with the status itself for a custom resource without one), or empty when its
     * status has no conditions.
     */
    @SuppressWarnings("unchecked")
    static Optional<List<Condition>> of(KubernetesSerialization serialization, HasMetadata object) {
        Object status = ResourceCopies.status(serialization, object);
        if (status == null && object instanceof CustomResource<?, ?> custom) {
            status = newStatus(custom);
        }
        if (status == null) {
            return Optional.empty();
        }
        Optional<Accessors> accessors = ACCESSORS.get(status.getClass());
        if (accessors.isEmpty()) {
            return Optional.empty();
        }
        try {
            List<Condition> conditions = (List<Condition>) accessors.get().getter().invoke(status);
            if (conditions == null || !(conditions instanceof ArrayList)) {
                if (accessors.get().setter() == null) {
                    return Optional.ofNullable(conditions);
                }
                conditions = conditions == null ? new ArrayList<>() : new ArrayList<>(conditions);
                accessors.get().setter().invoke(status, conditions);
            }
            return Optional.of(conditions);
        } catch (IllegalAccessException | InvocationTargetException e) {
            return Optional.empty();
        }
    }
}
