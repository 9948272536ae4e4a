package dev.kubeloop.api.watch;

import dev.kubeloop.api.predicate.EventPredicate;
import dev.kubeloop.api.predicate.Predicates;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One watch of a related type (controller-runtime's {@code Watches(obj, handler, predicates)}): which
 * objects of {@code type} to watch, how a change maps to the primaries to reconcile, and which
 * changes matter. Immutable: each method returns a new declaration.
 *
 * <pre>{@code
 * Watch.of(Secret.class)
 *         .metadataOnly()                                        // names and versions suffice
 *         .mapper(Mappers.byIndex(Website.class, "spec.tls.secretName"))
 *         .predicate(Predicates.resourceVersionChanged())
 * }</pre>
 *
 * <p>By default a watch covers the reconciler's namespaces (all of them if it watches all), every
 * object (no selector), whole objects, and its type must be served by the API server at start-up.
 *
 * @param <R> the watched type: a fabric8 model class (built-in, or a {@code CustomResource} subclass)
 */
public final class Watch<R extends HasMetadata> {

    /** Where a watch looks. */
    public enum Scope {
        /** The reconciler's namespaces (all namespaces if it watches all, and for cluster-scoped types). */
        RECONCILER,
        /** All namespaces, whatever the reconciler watches. */
        ALL_NAMESPACES,
        /** The namespaces given with {@link #inNamespaces}. */
        NAMESPACES
    }

    private final Class<R> type;
    private final @Nullable Mapper<? super R> mapper;
    private final EventPredicate<? super R> predicate;
    private final Scope scope;
    private final List<String> namespaces;
    private final String labelSelector;
    private final String fieldSelector;
    private final boolean metadataOnly;
    private final boolean optional;

    private Watch(Class<R> type, @Nullable Mapper<? super R> mapper, EventPredicate<? super R> predicate, Scope scope,
            List<String> namespaces, String labelSelector, String fieldSelector, boolean metadataOnly,
            boolean optional) {
        this.type = type;
        this.mapper = mapper;
        this.predicate = predicate;
        this.scope = scope;
        this.namespaces = namespaces;
        this.labelSelector = labelSelector;
        this.fieldSelector = fieldSelector;
        this.metadataOnly = metadataOnly;
        this.optional = optional;
    }

    /** A watch of {@code type}; give it a {@link #mapper}. */
    public static <R extends HasMetadata> Watch<R> of(Class<R> type) {
        return new Watch<>(Objects.requireNonNull(type, "type"), null, Predicates.all(), Scope.RECONCILER, List.of(),
                "", "", false, false);
    }

    /** How a change of a watched object maps to the primaries to reconcile. Required. */
    public Watch<R> mapper(Mapper<? super R> mapper) {
        return new Watch<>(type, Objects.requireNonNull(mapper, "mapper"), predicate, scope, namespaces,
                labelSelector, fieldSelector, metadataOnly, optional);
    }

    /** Which events of the watched type matter; default: all. Compose with {@link EventPredicate#and}. */
    public Watch<R> predicate(EventPredicate<? super R> predicate) {
        return new Watch<>(type, mapper, Objects.requireNonNull(predicate, "predicate"), scope, namespaces,
                labelSelector, fieldSelector, metadataOnly, optional);
    }

    /** Watch these namespaces instead of the reconciler's. Not for cluster-scoped types. */
    public Watch<R> inNamespaces(String... namespaces) {
        return new Watch<>(type, mapper, predicate, Scope.NAMESPACES, List.copyOf(Arrays.asList(namespaces)),
                labelSelector, fieldSelector, metadataOnly, optional);
    }

    /** Watch all namespaces, whatever the reconciler watches. */
    public Watch<R> inAllNamespaces() {
        return new Watch<>(type, mapper, predicate, Scope.ALL_NAMESPACES, List.of(), labelSelector, fieldSelector,
                metadataOnly, optional);
    }

    /** Only objects matching this label selector ({@code app=web,tier!=cache}), filtered by the API server. */
    public Watch<R> labelSelector(String labelSelector) {
        return new Watch<>(type, mapper, predicate, scope, namespaces, Objects.requireNonNull(labelSelector),
                fieldSelector, metadataOnly, optional);
    }

    /**
     * Only objects matching this field selector ({@code spec.nodeName=node-1},
     * {@code metadata.name!=x}; equality only, comma-separated), filtered by the API server. Which
     * fields a type supports is the API server's business (every type supports
     * {@code metadata.name} and {@code metadata.namespace}).
     */
    public Watch<R> fieldSelector(String fieldSelector) {
        return new Watch<>(type, mapper, predicate, scope, namespaces, labelSelector,
                Objects.requireNonNull(fieldSelector), metadataOnly, optional);
    }

    /**
     * Cache only the objects' metadata (name, namespace, labels, annotations, owner references,
     * versions), which the API server then sends instead of whole objects: watching every Secret
     * or Pod of a cluster costs their metadata, not their content. The objects the mapper and the
     * caches hand out are instances of the type with only {@code metadata} set.
     */
    public Watch<R> metadataOnly() {
        return new Watch<>(type, mapper, predicate, scope, namespaces, labelSelector, fieldSelector, true, optional);
    }

    /**
     * The type may not be served (its CRD not installed, say another operator's): start-up does not
     * fail; the watch starts when the type appears and stops cleanly when it goes, without a
     * restart. While it waits, its cache is empty, and health and {@code /actuator/kubeloop} say so.
     */
    public Watch<R> optional() {
        return new Watch<>(type, mapper, predicate, scope, namespaces, labelSelector, fieldSelector, metadataOnly,
                true);
    }

    public Class<R> type() {
        return type;
    }

    /** The mapper; null until one is given (start-up fails without one). */
    public @Nullable Mapper<? super R> mapper() {
        return mapper;
    }

    public EventPredicate<? super R> predicate() {
        return predicate;
    }

    public Scope scope() {
        return scope;
    }

    /** The namespaces of {@link Scope#NAMESPACES}; empty otherwise. */
    public List<String> namespaces() {
        return namespaces;
    }

    /** The label selector; empty for none. */
    public String labelSelector() {
        return labelSelector;
    }

    /** The field selector; empty for none. */
    public String fieldSelector() {
        return fieldSelector;
    }

    public boolean isMetadataOnly() {
        return metadataOnly;
    }

    public boolean isOptional() {
        return optional;
    }

    @Override
    public String toString() {
        return "Watch[" + HasMetadata.getFullResourceName(type) + ", scope=" + scope
                + (namespaces.isEmpty() ? "" : " " + namespaces)
                + (labelSelector.isEmpty() ? "" : ", labels=" + labelSelector)
                + (fieldSelector.isEmpty() ? "" : ", fields=" + fieldSelector)
                + (metadataOnly ? ", metadata only" : "") + (optional ? ", optional" : "") + "]";
    }
}
