package dev.kubeloop.autoconfigure;

import dev.kubeloop.api.Reconciler;
import dev.kubeloop.api.watch.WatchConfigurer;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.controller.ControllerConfig;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.convert.DurationStyle;

/**
 * Builds a {@link ControllerConfig} for a reconciler bean from its {@link Reconciler} annotation
 * (or the annotation's defaults when it has none) overridden by
 * {@code kubeloop.reconcilers.<name>.*}; namespaces fall back to {@code kubeloop.namespaces} when
 * neither names any. Invalid values fail with a
 * {@link KubeloopConfigurationException} that names the bean and where the value came from: the
 * property, the annotation attribute, or the default. Stateless apart from the properties.
 */
final class ControllerConfigFactory {

    /** Property (kebab-case) name of a setting → its {@code @Reconciler} attribute. */
    private static final Map<String, String> ATTRIBUTES = Map.ofEntries(Map.entry("workers", "workers"),
            Map.entry("namespaces", "namespaces"), Map.entry("label-selector", "labelSelector"),
            Map.entry("generation-aware", "generationAware"), Map.entry("resync-period", "resyncPeriod"),
            Map.entry("reconcile-timeout", "reconcileTimeout"), Map.entry("max-attempts", "maxAttempts"),
            Map.entry("finalizer", "finalizer"), Map.entry("name", "name"), Map.entry("owns", "owns"),
            Map.entry("deletes", "deletes"), Map.entry("field-manager", "fieldManager"));

    private static final Reconciler DEFAULTS = Defaults.class.getAnnotation(Reconciler.class);

    private final KubeloopProperties properties;

    ControllerConfigFactory(KubeloopProperties properties) {
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

    ControllerConfig<?> create(ReconcilerBean bean) {
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
                .maxAttempts(overrides.getMaxAttempts() != null ? overrides.getMaxAttempts() : annotation.maxAttempts())
                .finalizer(overrides.getFinalizer() != null ? overrides.getFinalizer() : annotation.finalizer())
                .fieldManager(overrides.getFieldManager() != null ? overrides.getFieldManager()
                        : annotation.fieldManager())
                .optional(annotation.optional());
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
            return DurationStyle.detectAndParse(value.trim());
        } catch (IllegalArgumentException e) {
            throw new KubeloopConfigurationException("Reconciler '" + name + "': '" + value
                    + "' is not a duration.", "Use a duration such as 30s, 10m, 2h or PT1H.", name, setting, e);
        }
    }

    /** Adds the bean and the source of the bad value to a runtime configuration error. */
    KubeloopConfigurationException explain(ReconcilerBean bean, String name, KubeloopConfigurationException e) {
        String setting = e.setting();
        String attribute = setting == null ? null : ATTRIBUTES.get(setting);
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
        if (overrides == null) {
            return false;
        }
        return switch (setting) {
            case "workers" -> overrides.getWorkers() != null;
            case "namespaces" -> overrides.getNamespaces() != null;
            case "label-selector" -> overrides.getLabelSelector() != null;
            case "generation-aware" -> overrides.getGenerationAware() != null;
            case "resync-period" -> overrides.getResyncPeriod() != null;
            case "reconcile-timeout" -> overrides.getReconcileTimeout() != null;
            case "max-attempts" -> overrides.getMaxAttempts() != null;
            case "finalizer" -> overrides.getFinalizer() != null;
            case "field-manager" -> overrides.getFieldManager() != null;
            default -> false;
        };
    }

    /** Carrier of the annotation's default values, for beans without the annotation. */
    @Reconciler
    private static final class Defaults {
    }
}
