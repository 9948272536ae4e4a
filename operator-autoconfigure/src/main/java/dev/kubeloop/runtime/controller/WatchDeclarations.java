package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.predicate.EventPredicate;
import dev.kubeloop.api.watch.IndexFunction;
import dev.kubeloop.api.watch.Mappers;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.cache.FieldSelectors;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a reconciler declared beyond its primary and owned types (through
 * {@code WatchConfigurer} or {@link ControllerConfig.Builder}), checked as a whole: watches of
 * related types, indexes, the primary's extra filter, whether the primary type is optional. Every
 * misdeclaration fails start-up with a {@link KubeloopConfigurationException} naming the
 * reconciler, what is wrong and the fix, before anything talks to the API server. Immutable.
 *
 * @param watches the watches, in declaration order
 * @param indexes the indexes, by type, in declaration order
 * @param primaryFilters the extra filters of the primary's events, all of which must pass
 * @param optionalPrimary whether the primary type may be absent
 */
public record WatchDeclarations<T extends HasMetadata>(List<Watch<?>> watches, List<Index<?>> indexes,
        List<EventPredicate<? super T>> primaryFilters, boolean optionalPrimary) {

    /**
     * One declared index.
     *
     * @param type the indexed type
     * @param name its name, unique per type and reconciler
     * @param function the values each object is found under
     */
    public record Index<R extends HasMetadata>(Class<R> type, String name, IndexFunction<? super R> function) {
    }

    /** Nothing declared. */
    static <T extends HasMetadata> WatchDeclarations<T> none() {
        return new WatchDeclarations<>(List.of(), List.of(), List.of(), false);
    }

    /** The indexes declared on {@code type}, by name. */
    public Map<String, Index<?>> indexesOf(Class<?> type) {
        Map<String, Index<?>> byName = new LinkedHashMap<>();
        for (Index<?> index : indexes) {
            if (index.type().equals(type)) {
                byName.put(index.name(), index);
            }
        }
        return byName;
    }

    /**
     * Checks the declarations of reconciler {@code controller} against its primary and owned types.
     *
     * @throws KubeloopConfigurationException naming the first misdeclaration and its fix
     */
    static <T extends HasMetadata> WatchDeclarations<T> validate(String controller, Class<T> primaryType,
            List<Class<? extends HasMetadata>> owned, Set<String> namespaces, List<Watch<?>> watches,
            List<Index<?>> indexes, List<EventPredicate<? super T>> primaryFilters, boolean optionalPrimary) {
        Set<Class<?>> fullTypes = new LinkedHashSet<>();
        fullTypes.add(primaryType);
        fullTypes.addAll(owned);
        Set<Class<?>> watchedTypes = new LinkedHashSet<>();
        for (Watch<?> watch : watches) {
            checkWatch(controller, watch, namespaces);
            if (!watchedTypes.add(watch.type())) {
                throw invalid(controller, "it watches " + name(watch.type()) + " twice",
                        "declare one watch per type: one mapper can return the keys of every relation");
            }
            if (watch.isMetadataOnly() && fullTypes.contains(watch.type())) {
                throw invalid(controller, "it watches " + name(watch.type()) + " metadata-only, but also caches "
                        + "it whole as its primary or owned type", "drop metadataOnly() from the watch");
            }
        }
        Set<Class<?>> cached = new LinkedHashSet<>(fullTypes);
        cached.addAll(watchedTypes);
        Set<String> seen = new LinkedHashSet<>();
        for (Index<?> index : indexes) {
            if (index.name() == null || index.name().isBlank() || index.function() == null) {
                throw invalid(controller, "an index on " + name(index.type()) + " has no name or no function",
                        "give watches.index(type, name, function) a name and a function");
            }
            if (!cached.contains(index.type())) {
                throw invalid(controller, "it declares the index '" + index.name() + "' on " + name(index.type())
                        + ", which it does not cache", "watch " + index.type().getSimpleName()
                        + " (watches.watch(Watch.of(" + index.type().getSimpleName() + ".class)...)) or own it, "
                        + "or index one of its cached types: " + simpleNames(cached));
            }
            if (!seen.add(index.type().getName() + "#" + index.name())) {
                throw invalid(controller, "it declares the index '" + index.name() + "' on "
                        + name(index.type()) + " twice", "give each index of a type its own name");
            }
        }
        for (Watch<?> watch : watches) {
            if (watch.mapper() instanceof Mappers.ByIndex<?> byIndex) {
                if (!byIndex.primaryType().equals(primaryType)) {
                    throw invalid(controller, "the watch of " + name(watch.type()) + " maps through an index of "
                            + byIndex.primaryType().getSimpleName() + ", which is not its primary type "
                            + primaryType.getSimpleName(), "use Mappers.byIndex(" + primaryType.getSimpleName()
                                    + ".class, ...): a mapper returns keys of primaries");
                }
                if (!seen.contains(primaryType.getName() + "#" + byIndex.index())) {
                    throw invalid(controller, "the watch of " + name(watch.type()) + " maps through the index '"
                            + byIndex.index() + "', which is not declared on " + primaryType.getSimpleName(),
                            "declare it: watches.index(" + primaryType.getSimpleName() + ".class, \""
                                    + byIndex.index() + "\", object -> ...)");
                }
            }
        }
        return new WatchDeclarations<T>(List.copyOf(watches), List.copyOf(indexes), List.copyOf(primaryFilters),
                optionalPrimary);
    }

    private static void checkWatch(String controller, Watch<?> watch, Set<String> reconcilerNamespaces) {
        Class<?> type = watch.type();
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())
                || GenericKubernetesResource.class.equals(type)) {
            throw invalid(controller, "it watches " + type.getName() + ", which is not a concrete resource class",
                    "watch a fabric8 model class (a built-in type or a CustomResource subclass annotated with "
                            + "@Group and @Version)");
        }
        if (watch.mapper() == null) {
            throw invalid(controller, "the watch of " + name(type) + " has no mapper",
                    "give it one: Watch.of(" + type.getSimpleName() + ".class).mapper(...), e.g. Mappers.byIndex");
        }
        boolean namespaced = Namespaced.class.isAssignableFrom(type);
        if (watch.scope() == Watch.Scope.NAMESPACES) {
            if (!namespaced) {
                throw invalid(controller, "the watch of " + name(type) + " names namespaces " + watch.namespaces()
                        + ", but " + type.getSimpleName() + " is cluster-scoped",
                        "remove inNamespaces(...) from the watch");
            }
            if (watch.namespaces().isEmpty()) {
                throw invalid(controller, "the watch of " + name(type) + " names no namespaces",
                        "name them in inNamespaces(...), or use inAllNamespaces()");
            }
            for (String namespace : watch.namespaces()) {
                if (!Settings.isDnsLabel(namespace)) {
                    throw invalid(controller, "the watch of " + name(type) + " names '" + namespace
                            + "', which is not a valid namespace name", "list existing namespaces");
                }
            }
        }
        try {
            LabelSelectors.validate(watch.labelSelector());
        } catch (IllegalArgumentException e) {
            throw invalid(controller, "the watch of " + name(type) + " has an " + e.getMessage(),
                    "fix the selector: key=value, key!=value, key in (a,b), key notin (a,b), key or !key, "
                            + "separated by commas");
        }
        try {
            FieldSelectors.parse(watch.fieldSelector());
        } catch (IllegalArgumentException e) {
            throw invalid(controller, "the watch of " + name(type) + " has an " + e.getMessage(),
                    "fix the selector: field=value or field!=value, separated by commas");
        }
        if (watch.isMetadataOnly()) {
            try {
                type.getConstructor();
            } catch (NoSuchMethodException e) {
                throw invalid(controller, "the metadata-only watch of " + name(type) + " cannot make objects: "
                        + type.getName() + " has no public no-argument constructor", "watch it whole");
            }
        }
    }

    private static String name(Class<?> type) {
        @SuppressWarnings("unchecked")
        Class<? extends HasMetadata> resource = (Class<? extends HasMetadata>) type;
        return HasMetadata.getFullResourceName(resource);
    }

    private static String simpleNames(Set<Class<?>> types) {
        List<String> names = new ArrayList<>();
        types.forEach(type -> names.add(type.getSimpleName()));
        return String.join(", ", names);
    }

    private static KubeloopConfigurationException invalid(String controller, String problem, String action) {
        return new KubeloopConfigurationException("Reconciler '" + controller + "': " + problem + ".",
                Character.toUpperCase(action.charAt(0)) + action.substring(1) + ".", controller, "watches", null);
    }
}
