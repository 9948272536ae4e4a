package dev.kubeloop.runtime.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * What a controller asks of the shared informers for one type: its scope (namespaces, selectors,
 * whole objects or metadata only), whether the type may be absent, the indexes it reads, and the
 * handler of the events. Immutable once built; not thread-safe while built.
 *
 * @param <T> the cached type
 */
public final class CacheRequest<T extends HasMetadata> {

    private final Class<T> type;
    private Set<String> namespaces = Set.of();
    private String labelSelector = "";
    private String fieldSelector = "";
    private boolean metadataOnly;
    private boolean optional;
    private boolean sharded;
    private boolean ownerIndex;
    private final Map<String, Function<T, List<String>>> indexes = new LinkedHashMap<>();
    private HandlerFactory<T> handlers;
    private Duration resync = Duration.ZERO;
    private String declarer = "a cache request";

    private CacheRequest(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    public static <T extends HasMetadata> CacheRequest<T> of(Class<T> type) {
        return new CacheRequest<>(type);
    }

    /**
     * Makes the handler of one informer. Called once per informer of a request's scope (one per
     * namespace of a namespace list), because a handler may keep per-informer state (such as
     * whether the first list has been delivered).
     */
    @FunctionalInterface
    public interface HandlerFactory<T> {
        /** @param informer the informer's description, for logs: {@code widgets.kubeloop.dev in namespace a} */
        ResourceEventHandler<T> handlerFor(String informer);
    }

    /** The namespaces (empty: all; ignored for cluster-scoped types). */
    public CacheRequest<T> namespaces(Set<String> namespaces) {
        this.namespaces = Set.copyOf(namespaces);
        return this;
    }

    public CacheRequest<T> labelSelector(String labelSelector) {
        this.labelSelector = labelSelector == null ? "" : labelSelector;
        return this;
    }

    public CacheRequest<T> fieldSelector(String fieldSelector) {
        this.fieldSelector = fieldSelector == null ? "" : fieldSelector;
        return this;
    }

    public CacheRequest<T> metadataOnly(boolean metadataOnly) {
        this.metadataOnly = metadataOnly;
        return this;
    }

    /** The type may not be served; its informers then wait for it instead of failing the start. */
    public CacheRequest<T> optional(boolean optional) {
        this.optional = optional;
        return this;
    }

    /**
     * Splits the scope by the registry's {@link ShardLayout} (when it has one): one informer per
     * bucket (and namespace), started only while this replica holds the bucket, so that a replica
     * caches its share of the objects. Primaries and the objects they own are sharded; watches of
     * other types are not (their objects carry no slot label).
     */
    public CacheRequest<T> sharded(boolean sharded) {
        this.sharded = sharded;
        return this;
    }

    /** Whether the informers need the {@link OwnerIndex}. */
    public CacheRequest<T> ownerIndex(boolean ownerIndex) {
        this.ownerIndex = ownerIndex;
        return this;
    }

    /**
     * Adds an index; its values are found per namespace and across namespaces (see {@link Indexes}).
     * Another request on the same informer may declare the same name with the same function object
     * (a controller whose owned and watched caches of one kind share the informer): the informer
     * keeps one index. The same name with a different function fails the registration.
     *
     * @param name the index's name in the shared informer, unique per informer (qualify it with the
     *     controller's name)
     */
    public CacheRequest<T> index(String name, Function<T, List<String>> values) {
        if (indexes.putIfAbsent(name, values) != null) {
            throw new IllegalArgumentException("index " + name + " is declared twice");
        }
        return this;
    }

    /** Who asks, for the message of an index conflict: {@code reconciler 'website'}. */
    public CacheRequest<T> declaredBy(String declarer) {
        this.declarer = Objects.requireNonNull(declarer, "declarer");
        return this;
    }

    /** Receives the events of every informer in the scope; none by default. */
    public CacheRequest<T> handlers(HandlerFactory<T> handlers) {
        this.handlers = handlers;
        return this;
    }

    /** How often the handler gets every object replayed; zero (the default) for never. */
    public CacheRequest<T> resync(Duration resync) {
        this.resync = resync == null ? Duration.ZERO : resync;
        return this;
    }

    Class<T> type() {
        return type;
    }

    Set<String> namespaces() {
        return namespaces;
    }

    String labelSelector() {
        return labelSelector;
    }

    String fieldSelector() {
        return fieldSelector;
    }

    boolean metadataOnly() {
        return metadataOnly;
    }

    boolean optional() {
        return optional;
    }

    boolean ownerIndex() {
        return ownerIndex;
    }

    boolean sharded() {
        return sharded;
    }

    Map<String, Function<T, List<String>>> indexes() {
        return indexes;
    }

    String declarer() {
        return declarer;
    }

    HandlerFactory<T> handlers() {
        return handlers;
    }

    Duration resync() {
        return resync;
    }
}
