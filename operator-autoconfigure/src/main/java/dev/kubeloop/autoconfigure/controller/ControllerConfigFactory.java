package dev.kubeloop.autoconfigure.controller;

import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.watch.WatchConfigurer;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.Setting;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.controller.ControllerConfig;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Builds a {@link ControllerConfig} for a reconciler bean from its {@link Reconciler} annotation
 * (or the annotation's defaults when it has none) overridden by
 * {@code kubeloop.reconcilers.<name>.*}; namespaces fall back to {@code kubeloop.namespaces} when
 * neither names any. Invalid values fail with a
 * {@link KubeloopConfigurationException} that names the bean and where the value came from: the
 * property, the annotation attribute, or the default. Stateless apart from the properties. Public
 * for {@code ManifestsDescriber} only; not an API.
 */
public final class ControllerConfigFactory {

    private static final String PER_RECONCILER = "kubeloop.reconcilers.*.";

    /**
     * The per-reconciler settings this class resolves one by one (their values need more than the
     * property-else-annotation rule: namespaces fall back to kubeloop.namespaces, durations are
     * parsed, the finalizer depends on Cleaner). Every other per-reconciler setting takes the
     * generic route: property {@code kubeloop.reconcilers.<name>.<key>} (the
     * {@link KubeloopProperties.Reconciler} getter of the same name), else the {@code @Reconciler}
     * attribute of the same name in camel case, into {@link ControllerConfig.Builder#setting}.
     */
    private static final Set<String> RESOLVED_HERE = Set.of("workers", "namespaces", "label-selector",
            "generation-aware", "resync-period", "reconcile-timeout", "finalizer", "field-manager");

    private static final Reconciler DEFAULTS = Defaults.class.getAnnotation(Reconciler.class);

    private final KubeloopProperties properties;

    public ControllerConfigFactory(KubeloopProperties properties) {
        this.properties = properties;
    }

    /** The name the bean's controller gets: the annotation's, or the primary kind in lower case. */
    static String nameOf(ReconcilerBean bean) {
        Reconciler annotation = bean.annotation() != null ? bean.annotation() : DEFAULTS;
        if (!annotation.name().isBlank()) {
            return annotation.name().trim();
        }
        return bean.primaryType() == null ? bean.beanName()
                : HasMetadata.getKind(bean.primaryType()).toLowerCase(Locale.ROOT);
    }

    public ControllerConfig<?> create(ReconcilerBean bean) {
        if (bean.primaryType() == null || !HasMetadata.class.isAssignableFrom(bean.primaryType())) {
            throw new KubeloopConfigurationException("Reconciler bean '" + bean.beanName() + "' ("
                    + bean.userClass().getName() + ") does not say which resource it reconciles: its type argument "
                    + (bean.primaryType() == null ? "cannot be resolved"
                            : bean.primaryType().getName() + " is not a Kubernetes resource (HasMetadata)") + ".",
                    "Declare the class as 'implements ResourceReconciler<YourResource>', where YourResource is a "
                            + "fabric8 model class (a built-in type or a CustomResource subclass).",
                    bean.beanName(), "type", null);
        }
        String name = nameOf(bean);
        try {
            return build(bean, name, bean.primaryType().asSubclass(HasMetadata.class));
        } catch (KubeloopConfigurationException e) {
            throw explain(bean, name, e);
        }
    }

    private <T extends HasMetadata> ControllerConfig<T> build(ReconcilerBean bean, String name, Class<T> type) {
        Reconciler annotation = bean.annotation() != null ? bean.annotation() : DEFAULTS;
        KubeloopProperties.Reconciler overrides = properties.getReconcilers().getOrDefault(name,
                new KubeloopProperties.Reconciler());
        ControllerConfig.Builder<T> builder = ControllerConfig.builder(name, type)
                .reconcilerClass(bean.userClass())
                .workers(overrides.getWorkers() != null ? overrides.getWorkers() : annotation.workers())
                .namespaces(overrides.getNamespaces() != null ? overrides.getNamespaces()
                        : annotation.namespaces().length > 0 ? Arrays.asList(annotation.namespaces())
                        : properties.getNamespaces())
                .labelSelector(overrides.getLabelSelector() != null ? overrides.getLabelSelector()
                        : annotation.labelSelector())
                .owns(List.of(annotation.owns()))
                .deletes(List.of(annotation.deletes()))
                .generationAware(overrides.getGenerationAware() != null ? overrides.getGenerationAware()
                        : annotation.generationAware())
                .resyncPeriod(overrides.getResyncPeriod() != null ? overrides.getResyncPeriod()
                        : duration(name, "resync-period", annotation.resyncPeriod()))
                .reconcileTimeout(overrides.getReconcileTimeout() != null ? overrides.getReconcileTimeout()
                        : duration(name, "reconcile-timeout", annotation.reconcileTimeout()))
                .finalizer(overrides.getFinalizer() != null ? overrides.getFinalizer() : annotation.finalizer())
                .fieldManager(overrides.getFieldManager() != null ? overrides.getFieldManager()
                        : annotation.fieldManager())
                .optional(annotation.optional());
        for (Setting<?> setting : Settings.all()) {
            String key = setting.property().startsWith(PER_RECONCILER)
                    ? setting.property().substring(PER_RECONCILER.length()) : null;
            if (key != null && !RESOLVED_HERE.contains(key)) {
                Object value = invoke(overrides, getter(KubeloopProperties.Reconciler.class, camel(key)));
                if (value == null) {
                    value = invoke(annotation, method(Reconciler.class, camel(key)));
                }
                @SuppressWarnings("unchecked")
                Setting<Object> generic = (Setting<Object>) setting;
                builder.setting(generic, value instanceof String text && setting.defaultValue() instanceof Duration
                        ? duration(name, key, text) : value);
            }
        }
        if (bean.reconciler() instanceof WatchConfigurer<?> configurer) {
            @SuppressWarnings("unchecked")
            WatchConfigurer<T> typed = (WatchConfigurer<T>) configurer;
            builder.configuredBy(typed);
        }
        return builder.build();
    }

    private static Duration duration(String name, String setting, String value) {
        if (value == null || value.isBlank()) {
            return Duration.ZERO;
        }
        try {
            return Settings.parseDuration(value);
        } catch (IllegalArgumentException e) {
            throw new KubeloopConfigurationException("Reconciler '" + name + "': '" + value
                    + "' is not a duration.", "Use a duration such as 30s, 10m, 2h or PT1H.", name, setting, e);
        }
    }

    /** Adds the bean and the source of the bad value to a runtime configuration error. */
    KubeloopConfigurationException explain(ReconcilerBean bean, String name, KubeloopConfigurationException e) {
        String setting = e.setting();
        String attribute = setting == null ? null : attribute(setting);
        String property = "kubeloop.reconcilers." + name + "." + setting;
        boolean propertyApplies = setting != null && !setting.equals("name") && !setting.equals("owns")
                && !setting.equals("deletes") && !setting.equals("type") && !setting.equals("watches");
        String source;
        if ("watches".equals(setting)) {
            source = "configureWatches of " + bean.userClass().getName();
        } else if ("type".equals(setting)) {
            source = "the type argument of ResourceReconciler on " + bean.userClass().getName();
        } else if (propertyApplies && isSet(name, setting)) {
            source = "property " + property;
        } else if ("namespaces".equals(setting) && fromGlobalNamespaces(bean)) {
            source = "property kubeloop.namespaces";
        } else if (attribute != null && bean.annotation() != null) {
            source = "@Reconciler(" + attribute + ") on " + bean.userClass().getName();
        } else {
            source = "the default";
        }
        String description = e.description() + " The value comes from " + source + " (reconciler bean '"
                + bean.beanName() + "').";
        String action = e.action();
        if (propertyApplies) {
            action += " Set it with the property " + property + " or @Reconciler(" + attribute + ").";
        } else if (attribute != null) {
            action += " Set it with @Reconciler(" + attribute + ") on " + bean.userClass().getName() + ".";
        }
        return new KubeloopConfigurationException(description, action, name, setting, e);
    }

    /** True if the bean's namespaces are kubeloop.namespaces: neither its property nor its annotation names any. */
    private boolean fromGlobalNamespaces(ReconcilerBean bean) {
        return !properties.getNamespaces().isEmpty()
                && (bean.annotation() == null || bean.annotation().namespaces().length == 0);
    }

    private boolean isSet(String name, String setting) {
        KubeloopProperties.Reconciler overrides = properties.getReconcilers().get(name);
        Method getter = getter(KubeloopProperties.Reconciler.class, camel(setting));
        return overrides != null && getter != null && invoke(overrides, getter) != null;
    }

    /** The {@code @Reconciler} attribute a setting key names ({@code max-attempts}: maxAttempts), if any. */
    private static String attribute(String key) {
        String camel = camel(key);
        return method(Reconciler.class, camel) == null ? null : camel;
    }

    private static String camel(String key) {
        StringBuilder camel = new StringBuilder();
        for (String part : key.split("-")) {
            camel.append(camel.length() == 0 ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
        }
        return camel.toString();
    }

    private static Method getter(Class<?> type, String property) {
        String suffix = Character.toUpperCase(property.charAt(0)) + property.substring(1);
        Method getter = method(type, "get" + suffix);
        return getter != null ? getter : method(type, "is" + suffix);
    }

    private static Method method(Class<?> type, String name) {
        try {
            return type.getMethod(name);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Object invoke(Object target, Method method) {
        if (method == null) {
            return null;
        }
        try {
            return method.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + method, e);
        }
    }

    /** Carrier of the annotation's default values, for beans without the annotation. */
    @Reconciler
    private static final class Defaults {
    }
}
