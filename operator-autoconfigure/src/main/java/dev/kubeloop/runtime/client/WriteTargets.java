package dev.kubeloop.runtime.client;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.Objects;
import java.util.Optional;

/**
 * The object a write whose body the runtime renders itself is addressed with: same class,
 * apiVersion, kind, namespace and name as the object written, nothing else.
 *
 * <p>Why: fabric8's {@code client.resource(item).patch(context, body)} clones {@code item} (renders
 * it to JSON text and parses it back) before every request, and then uses only its name and
 * namespace for the URL (its class, apiVersion and kind chose the endpoint). Addressed with the
 * reconciler's whole object, every status write paid a full copy of it: about 15 % of a worker's
 * CPU per status write in the profile of docs/performance.md (issue 32). The stub costs a few
 * small allocations. A type without a public no-argument constructor, or whose new instance does
 * not report the object's apiVersion and kind, is addressed with the object itself, as before.
 * Stateless; the constructor lookup is cached per class.
 */
public final class WriteTargets {

    private static final ClassValue<Optional<Constructor<?>>> NO_ARG_CONSTRUCTORS = new ClassValue<>() {
        @Override
        protected Optional<Constructor<?>> computeValue(Class<?> type) {
            if (!Modifier.isPublic(type.getModifiers()) || Modifier.isAbstract(type.getModifiers())) {
                return Optional.empty();
            }
            try {
                return Optional.of(type.getConstructor());
            } catch (NoSuchMethodException e) {
                return Optional.empty();
            }
        }
    };

    private WriteTargets() {
    }

    /** A stub naming the same object as {@code object}, or {@code object} itself when no stub can be made. */
    @SuppressWarnings("unchecked")
    public static <T extends HasMetadata> T of(T object) {
        ObjectMeta metadata = object.getMetadata();
        if (metadata == null) {
            return object;
        }
        T stub = (T) newInstance(object.getClass());
        if (stub == null) {
            return object;
        }
        if (stub instanceof GenericKubernetesResource generic) {
            generic.setKind(object.getKind());
        }
        stub.setApiVersion(object.getApiVersion());
        if (!Objects.equals(stub.getKind(), object.getKind())
                || !Objects.equals(stub.getApiVersion(), object.getApiVersion())) {
            return object;
        }
        ObjectMeta address = new ObjectMeta();
        address.setName(metadata.getName());
        address.setNamespace(metadata.getNamespace());
        stub.setMetadata(address);
        return stub;
    }

    private static Object newInstance(Class<?> type) {
        Optional<Constructor<?>> constructor = NO_ARG_CONSTRUCTORS.get(type);
        if (constructor.isEmpty()) {
            return null;
        }
        try {
            return constructor.get().newInstance();
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            return null;
        }
    }
}
