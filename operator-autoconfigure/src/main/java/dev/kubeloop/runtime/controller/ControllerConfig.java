package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.predicate.EventPredicate;
import dev.kubeloop.api.watch.IndexFunction;
import dev.kubeloop.api.watch.Watch;
import dev.kubeloop.api.watch.WatchConfigurer;
import dev.kubeloop.api.watch.Watches;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.Setting;
import dev.kubeloop.runtime.Settings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The validated settings of one controller: what it watches and how it runs. The runtime's
 * equivalent of {@link dev.kubeloop.api.Reconciler @Reconciler}; the Spring auto-configuration
 * builds one from the annotation and the {@code kubeloop.reconcilers.<name>.*} properties, plain
 * Java callers build it directly. Defaults and accepted values are the {@link Settings}' (whose
 * defaults are the annotation's).
 *
 * <p>Immutable and thread-safe. {@link Builder#build()} rejects invalid settings with a
 * {@link KubeloopConfigurationException} whose {@link KubeloopConfigurationException#setting()}
 * names the setting.
 *
 * @param <T> the primary resource type
 */
public final class ControllerConfig<T extends HasMetadata> {

    /** The property prefix of a per-reconciler setting, the reconciler's name a {@code *}. */
    private static final String PER_RECONCILER = "kubeloop.reconcilers.*.";


    private final String name;
    private final Class<T> primaryType;
    private final int workers;
    private final Set<String> namespaces;
    private final String labelSelector;
    private final List<Class<? extends HasMetadata>> owns;
    private final List<Class<? extends HasMetadata>> deletes;
    /** The label selector of each owned type's cache that has one (see {@link #ownedLabelSelector}). */
    private final Map<Class<?>, String> ownedSelectors;
    private final boolean generationAware;
    private final Duration resyncPeriod;
    private final Duration reconcileTimeout;
    /** The settings of the generic route (one {@link Setting} each, see {@link #setting}), validated. */
    private final Map<Setting<?>, Object> settings;
    private final String finalizer;
    private final String fieldManager;
    private final Class<?> reconcilerClass;
    private final WatchDeclarations<T> declarations;
    private final boolean declaredByReconciler;

    private ControllerConfig(Builder<T> builder, Set<String> namespaces, String labelSelector,
            List<Class<? extends HasMetadata>> owns, Map<Class<?>, String> ownedSelectors, String finalizer,
            String fieldManager, WatchDeclarations<T> declarations) {
        this.name = builder.name;
        this.ownedSelectors = ownedSelectors;
        this.primaryType = builder.primaryType;
        this.workers = builder.workers;
        this.namespaces = namespaces;
        this.labelSelector = labelSelector;
        this.owns = owns;
        this.deletes = List.copyOf(new LinkedHashSet<>(builder.deletes));
        this.generationAware = builder.generationAware;
        this.resyncPeriod = builder.resyncPeriod;
        this.reconcileTimeout = builder.reconcileTimeout;
        this.settings = Map.copyOf(builder.settings);
        this.finalizer = finalizer;
        this.fieldManager = fieldManager;
        this.reconcilerClass = builder.reconcilerClass;
        this.declarations = declarations;
        this.declaredByReconciler = builder.declaredByReconciler;
    }

    public static <T extends HasMetadata> Builder<T> builder(String name, Class<T> primaryType) {
        return new Builder<>(name, primaryType);
    }

    /** The controller's name in logs, thread names, metrics and properties. */
    public String name() {
        return name;
    }

    public Class<T> primaryType() {
        return primaryType;
    }

    /** Worker threads: how many objects are reconciled at once. */
    public int workers() {
        return workers;
    }

    /** The namespaces watched, sorted; empty means all namespaces. */
    public Set<String> namespaces() {
        return namespaces;
    }

    /** The label selector for primaries, or "" for all. */
    public String labelSelector() {
        return labelSelector;
    }

    /** Owned types: their changes enqueue their controller owner. */
    public List<Class<? extends HasMetadata>> owns() {
        return owns;
    }

    /**
     * The kinds the reconciler declares it deletes ({@code @Reconciler(deletes)}): owned kinds that
     * pruning removes and kinds it passes to {@code context.delete}. The runtime does not consult
     * it; the generated RBAC grants {@code delete} on exactly these (docs/security.md).
     */
    public List<Class<? extends HasMetadata>> deletes() {
        return deletes;
    }

    /**
     * The label selector that limits the cache of owned type {@code type}, validated; empty when it
     * caches every object of the type in the reconciler's namespaces (the default).
     */
    public String ownedLabelSelector(Class<?> type) {
        return ownedSelectors.getOrDefault(type, "");
    }

    /** Whether primary updates that change only status (or nothing) are skipped. */
    public boolean generationAware() {
        return generationAware;
    }

    /** How often every cached primary is reconciled again; zero disables resync. */
    public Duration resyncPeriod() {
        return resyncPeriod;
    }

    /** How long one reconcile may run before it is interrupted; zero means no limit. */
    public Duration reconcileTimeout() {
        return reconcileTimeout;
    }

    /**
     * How many failed reconciles in a row a key gets before it rests (no retry until its object
     * changes or a trigger queues it); zero means no limit, client-go's unlimited backoff.
     */
    public int maxAttempts() {
        return setting(Settings.MAX_ATTEMPTS);
    }

    /**
     * The value of a per-reconciler setting on the generic route: what the builder was given (from
     * the property or the annotation), else the catalog's default. A new per-reconciler setting
     * needs no field here: its consumer reads it with this method (CONTRIBUTING.md).
     */
    @SuppressWarnings("unchecked")
    public <V> V setting(Setting<V> setting) {
        return settings.containsKey(setting) ? (V) settings.get(setting) : setting.defaultValue();
    }

    /** The finalizer set explicitly, if any (see {@link FinalizerProtocol} for the default). */
    public Optional<String> finalizer() {
        return Optional.ofNullable(finalizer);
    }

    /**
     * The class to inspect for an overridden {@code cleanup} and to name the reconciler's logger
     * after, or null for the reconciler's runtime class. Frameworks that wrap reconcilers in
     * proxies pass the user's class here.
     */
    public Class<?> reconcilerClass() {
        return reconcilerClass;
    }

    /** The field manager of the controller's server-side applies: the configured one, or its name. */
    public String fieldManager() {
        return fieldManager;
    }

    /** What the reconciler declared beyond its primary and owned types: watches, indexes, filters. */
    public WatchDeclarations<T> declarations() {
        return declarations;
    }

    /** Whether the reconciler's own {@code WatchConfigurer} has contributed to this config. */
    public boolean declaredByReconciler() {
        return declaredByReconciler;
    }

    /** A builder holding this config's settings, to derive another. */
    public Builder<T> toBuilder() {
        Builder<T> builder = new Builder<>(name, primaryType).workers(workers).namespaces(namespaces)
                .labelSelector(labelSelector).owns(owns).deletes(deletes).generationAware(generationAware)
                .resyncPeriod(resyncPeriod).reconcileTimeout(reconcileTimeout).finalizer(finalizer)
                .reconcilerClass(reconcilerClass)
                .fieldManager(fieldManager.equals(name) ? null : fieldManager);
        builder.ownedSelectors.putAll(ownedSelectors);
        builder.settings.putAll(settings);
        builder.watches.addAll(declarations.watches());
        builder.indexes.addAll(declarations.indexes());
        builder.primaryFilters.addAll(declarations.primaryFilters());
        builder.optionalPrimary = declarations.optionalPrimary();
        builder.declaredByReconciler = declaredByReconciler;
        return builder;
    }

    @Override
    public String toString() {
        return "ControllerConfig[" + name + ", " + primaryType.getName() + ", workers=" + workers
                + ", namespaces=" + namespaces + ", labelSelector='" + labelSelector + "', owns=" + owns.size()
                + ", generationAware=" + generationAware + ", resyncPeriod=" + resyncPeriod
                 + ", reconcileTimeout=" + reconcileTimeout + ", settings=" + settings + ", finalizer=" + finalizer + ", watches="
                + declarations.watches() + ", optionalPrimary=" + declarations.optionalPrimary() + "]";
    }

    /**
     * Builds a {@link ControllerConfig}; also the {@link Watches} a reconciler's
     * {@code WatchConfigurer} declares into. Not thread-safe; build once.
     */
    public static final class Builder<T extends HasMetadata> implements Watches<T> {
        private final String name;
        private final Class<T> primaryType;
        private int workers = Settings.WORKERS.defaultValue();
        private Collection<String> namespaces = Settings.RECONCILER_NAMESPACES.defaultValue();
        private String labelSelector = Settings.LABEL_SELECTOR.defaultValue();
        private Collection<Class<? extends HasMetadata>> owns = List.of();
        private Collection<Class<? extends HasMetadata>> deletes = List.of();
        /** As declared, not yet validated (build() does). */
        private final Map<Class<?>, String> ownedSelectors = new LinkedHashMap<>();
        private boolean generationAware = Settings.GENERATION_AWARE.defaultValue();
        private Duration resyncPeriod = Settings.RESYNC_PERIOD.defaultValue();
        private Duration reconcileTimeout = Settings.RECONCILE_TIMEOUT.defaultValue();
        private final Map<Setting<?>, Object> settings = new LinkedHashMap<>();
        private String finalizer;
        private String fieldManager;
        private Class<?> reconcilerClass;
        private final List<Watch<?>> watches = new ArrayList<>();
        private final List<WatchDeclarations.Index<?>> indexes = new ArrayList<>();
        private final List<EventPredicate<? super T>> primaryFilters = new ArrayList<>();
        private boolean optionalPrimary;
        private boolean declaredByReconciler;

        private Builder(String name, Class<T> primaryType) {
            this.name = name;
            this.primaryType = primaryType;
        }

        public Builder<T> workers(int workers) {
            this.workers = workers;
            return this;
        }

        public Builder<T> namespaces(Collection<String> namespaces) {
            this.namespaces = Objects.requireNonNull(namespaces, "namespaces");
            return this;
        }

        public Builder<T> labelSelector(String labelSelector) {
            this.labelSelector = labelSelector;
            return this;
        }

        public Builder<T> owns(Collection<Class<? extends HasMetadata>> owns) {
            this.owns = new ArrayList<>(Objects.requireNonNull(owns, "owns"));
            return this;
        }

        /** The kinds the reconciler deletes (by pruning or {@code context.delete}), for its RBAC; see {@link ControllerConfig#deletes()}. */
        public Builder<T> deletes(Collection<Class<? extends HasMetadata>> deletes) {
            this.deletes = new ArrayList<>(Objects.requireNonNull(deletes, "deletes"));
            return this;
        }

        @Override
        public Builder<T> owns(Class<? extends HasMetadata> type) {
            List<Class<? extends HasMetadata>> more = new ArrayList<>(owns);
            more.add(type);
            this.owns = more;
            return this;
        }

        @Override
        public Builder<T> owns(Class<? extends HasMetadata> type, String labelSelector) {
            owns(type);
            String selector = labelSelector == null ? "" : labelSelector.trim();
            String before = ownedSelectors.get(type);
            if (before != null && !before.equals(selector) && !selector.isEmpty()) {
                throw invalid(name, "owns", "it owns " + (type == null ? "null" : type.getSimpleName())
                        + " with two label selectors, '" + before + "' and '" + selector + "'",
                        "declare one selector per owned type (one cache of the kind)");
            }
            if (!selector.isEmpty()) {
                ownedSelectors.put(type, selector);
            }
            return this;
        }

        @Override
        public Builder<T> ownsApplied(Class<? extends HasMetadata> type) {
            // the label every owned apply of this controller writes (ControllerWrites.placeAndOwn)
            return owns(type, ControllerWrites.APPLIED_BY + "=" + name);
        }

        @Override
        public Builder<T> watch(Watch<?> watch) {
            watches.add(Objects.requireNonNull(watch, "watch"));
            return this;
        }

        @Override
        public <R extends HasMetadata> Builder<T> index(Class<R> type, String name, IndexFunction<? super R> function) {
            indexes.add(new WatchDeclarations.Index<>(Objects.requireNonNull(type, "type"), name, function));
            return this;
        }

        @Override
        public Builder<T> primaryFilter(EventPredicate<? super T> predicate) {
            primaryFilters.add(Objects.requireNonNull(predicate, "predicate"));
            return this;
        }

        @Override
        public Builder<T> optionalPrimary() {
            return optional(true);
        }

        /** Whether the primary type may be absent (its CRD not installed); default false. */
        public Builder<T> optional(boolean optional) {
            this.optionalPrimary = optional;
            return this;
        }

        /** Lets the reconciler's own {@code WatchConfigurer} declare into this builder, once. */
        public Builder<T> configuredBy(WatchConfigurer<T> configurer) {
            if (!declaredByReconciler) {
                declaredByReconciler = true;
                configurer.configureWatches(this);
            }
            return this;
        }

        public Builder<T> generationAware(boolean generationAware) {
            this.generationAware = generationAware;
            return this;
        }

        /** Zero (or null) disables resync. */
        public Builder<T> resyncPeriod(Duration resyncPeriod) {
            this.resyncPeriod = resyncPeriod == null ? Duration.ZERO : resyncPeriod;
            return this;
        }

        /** Zero (or null) means no limit. */
        public Builder<T> reconcileTimeout(Duration reconcileTimeout) {
            this.reconcileTimeout = reconcileTimeout == null ? Duration.ZERO : reconcileTimeout;
            return this;
        }

        /** Zero means no limit: a failing key is retried with backoff for ever. */
        public Builder<T> maxAttempts(int maxAttempts) {
            return setting(Settings.MAX_ATTEMPTS, maxAttempts);
        }

        /** A per-reconciler setting of the generic route ({@link ControllerConfig#setting}); checked by build(). */
        public <V> Builder<T> setting(Setting<V> setting, V value) {
            if (!setting.property().startsWith(PER_RECONCILER)) {
                throw new IllegalArgumentException(setting.property() + " is not a per-reconciler setting");
            }
            settings.put(setting, value);
            return this;
        }

        /** Blank (or null) means the default: a finalizer only when the reconciler implements {@code Cleaner}. */
        public Builder<T> finalizer(String finalizer) {
            this.finalizer = finalizer;
            return this;
        }

        /** Blank (or null) means the default: the controller's name. */
        public Builder<T> fieldManager(String fieldManager) {
            this.fieldManager = fieldManager;
            return this;
        }

        /** See {@link ControllerConfig#reconcilerClass()}. */
        public Builder<T> reconcilerClass(Class<?> reconcilerClass) {
            this.reconcilerClass = reconcilerClass;
            return this;
        }

        /** @throws KubeloopConfigurationException naming the first invalid setting */
        public ControllerConfig<T> build() {
            String label = name == null ? "<unnamed>" : name;
            // names end up in thread names, properties, metrics and finalizers: keep them DNS labels
            if (!Settings.isDnsLabel(name)) {
                throw invalid(label, "name", "'" + name + "' is not a valid controller name",
                        "use lower-case letters, digits and '-', at most 63 characters, starting and ending "
                                + "with a letter or digit");
            }
            requireResourceClass(primaryType, "type", "the primary type");
            if (!Settings.WORKERS.accepts(workers)) {
                throw invalid(name, "workers", "workers must be " + Settings.WORKERS.allowed() + ", was " + workers,
                        "set workers to " + Settings.WORKERS.allowed());
            }
            Set<String> validNamespaces = validNamespaces();
            String validSelector;
            try {
                validSelector = LabelSelectors.validate(labelSelector);
            } catch (IllegalArgumentException e) {
                throw invalid(name, "label-selector", e.getMessage(),
                        "fix the selector; the syntax is key=value, key!=value, key in (a,b), key notin (a,b), "
                                + "key or !key, separated by commas");
            }
            List<Class<? extends HasMetadata>> ownedTypes = new ArrayList<>();
            for (Class<? extends HasMetadata> owned : new LinkedHashSet<>(owns)) {
                requireResourceClass(owned, "owns", "owned type " + (owned == null ? "null" : owned.getName()));
                ownedTypes.add(owned);
            }
            for (Class<? extends HasMetadata> deleted : deletes) {
                requireResourceClass(deleted, "deletes", "deleted type " + (deleted == null ? "null" : deleted.getName()));
            }
            if (!Settings.RESYNC_PERIOD.accepts(resyncPeriod)) {
                throw invalid(name, "resync-period", "resync period must be " + Settings.RESYNC_PERIOD.allowed()
                        + ", was " + resyncPeriod, "set " + Settings.RESYNC_PERIOD.allowed());
            }
            if (!Settings.RECONCILE_TIMEOUT.accepts(reconcileTimeout)) {
                throw invalid(name, "reconcile-timeout", "reconcile timeout must be "
                        + Settings.RECONCILE_TIMEOUT.allowed() + ", was " + reconcileTimeout,
                        "set " + Settings.RECONCILE_TIMEOUT.allowed());
            }
            settings.forEach((setting, value) -> check(setting, value));
            String validFinalizer = finalizer == null || finalizer.isBlank() ? null : finalizer.trim();
            if (validFinalizer != null && !HasMetadata.validateFinalizer(validFinalizer)) {
                throw invalid(name, "finalizer", "'" + validFinalizer + "' is not a valid finalizer name",
                        "use a domain-qualified name such as example.com/cleanup");
            }
            String validFieldManager = fieldManager == null || fieldManager.isBlank() ? name : fieldManager.trim();
            if (!Settings.FIELD_MANAGER.accepts(validFieldManager)) {
                throw invalid(name, "field-manager", "'" + validFieldManager + "' is not a valid field manager",
                        "use " + Settings.FIELD_MANAGER.allowed());
            }
            List<Class<? extends HasMetadata>> validOwned = List.copyOf(ownedTypes);
            Map<Class<?>, String> validOwnedSelectors = new LinkedHashMap<>();
            ownedSelectors.forEach((type, selector) -> {
                try {
                    validOwnedSelectors.put(type, LabelSelectors.validate(selector));
                } catch (IllegalArgumentException e) {
                    throw invalid(name, "owns", "the label selector of owned type " + type.getSimpleName() + " is "
                            + "invalid: " + e.getMessage(), "fix the selector; the syntax is key=value, key!=value, "
                            + "key in (a,b), key notin (a,b), key or !key, separated by commas");
                }
            });
            WatchDeclarations<T> declarations = WatchDeclarations.validate(name, primaryType, validOwned,
                    validNamespaces, watches, indexes, primaryFilters, optionalPrimary);
            return new ControllerConfig<>(this, validNamespaces, validSelector, validOwned,
                    Collections.unmodifiableMap(validOwnedSelectors), validFinalizer,
                    validFieldManager, declarations);
        }

        private Set<String> validNamespaces() {
            Set<String> result = new TreeSet<>();
            for (String namespace : namespaces) {
                String trimmed = namespace == null ? "" : namespace.trim();
                if (!Settings.isDnsLabel(trimmed)) {
                    throw invalid(name, "namespaces", "'" + namespace + "' is not a valid namespace name",
                            "list existing namespaces, or none to watch all namespaces");
                }
                result.add(trimmed);
            }
            if (!result.isEmpty() && !Namespaced.class.isAssignableFrom(primaryType)) {
                throw invalid(name, "namespaces", primaryType.getSimpleName()
                        + " is cluster-scoped, so it cannot be watched in namespaces " + result,
                        "remove the namespaces setting");
            }
            return Collections.unmodifiableSet(result);
        }

        private void requireResourceClass(Class<?> type, String setting, String what) {
            if (type == null || !HasMetadata.class.isAssignableFrom(type)) {
                throw invalid(name, setting, what + " " + (type == null ? "is unknown" : type.getName()
                        + " does not implement " + HasMetadata.class.getName()),
                        "declare the reconciler as ResourceReconciler<YourResource> where YourResource is a "
                                + "fabric8 model class (a built-in type or a CustomResource subclass)");
            }
            if (type.isInterface() || Modifier.isAbstract(type.getModifiers())
                    || GenericKubernetesResource.class.equals(type)) {
                throw invalid(name, setting, what + " " + type.getName()
                        + " is not a concrete resource class, so its API group, version and kind are unknown",
                        "use a concrete fabric8 model class (a built-in type or a CustomResource subclass "
                                + "annotated with @Group and @Version)");
            }
        }

        @SuppressWarnings("unchecked")
        private void check(Setting<?> setting, Object value) {
            if (!((Setting<Object>) setting).accepts(value)) {
                String key = setting.property().substring(PER_RECONCILER.length());
                throw invalid(name, key, key.replace('-', ' ') + " must be " + setting.allowed() + ", was "
                        + (value == null ? "empty" : Setting.format(value)), "set " + setting.allowed());
            }
        }

        private static KubeloopConfigurationException invalid(String controller, String setting, String problem,
                String action) {
            return new KubeloopConfigurationException("Reconciler '" + controller + "': " + problem + ".",
                    capitalize(action) + ".", controller, setting, null);
        }

        private static String capitalize(String text) {
            return Character.toUpperCase(text.charAt(0)) + text.substring(1);
        }
    }
}
