package dev.kubeloop.autoconfigure.controller;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.MaxOfRateLimiter;
import dev.kubeloop.queue.RateLimiter;
import dev.kubeloop.queue.TokenBucketRateLimiter;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.Setting;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.runtime.manager.WorkGate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Builds the {@link ControllerManager} from {@link KubeloopProperties} and the application's
 * reconciler beans, validating everything a user can get wrong before anything talks to the API
 * server: global properties, duplicate reconciler names, per-reconciler properties for reconcilers
 * that do not exist, and each reconciler's settings. Stateless.
 */
final class ControllerManagerFactory {

    private ControllerManagerFactory() {
    }

    static ControllerManager create(KubernetesClient client, KubeloopProperties properties,
            List<ReconcilerBean> reconcilers, List<ControllerObserver> observers, WorkGate gate, Tracing tracing) {
        // each builder method checks its value against the runtime's catalog (Settings), whose
        // KubeloopConfigurationException names the property, the value and what it accepts
        ControllerManager.Builder builder = ControllerManager.builder(client)
                .workGate(gate)
                .tracing(tracing)
                .stripManagedFields(properties.isStripManagedFields())
                .rateLimiter(rateLimiters(properties.getRateLimiter()))
                .listPageSize(properties.getInformerListPageSize())
                .optionalTypePollInterval(properties.getOptionalTypePollInterval())
                .readYourWrites(properties.isReadYourWrites())
                .recentErrors(properties.getIntrospection().getLastErrors())
                .cacheSyncTimeout(properties.getCacheSyncTimeout())
                .shutdownTimeout(properties.getShutdownTimeout());
        observers.forEach(builder::observer);
        Map<String, ReconcilerBean> byName = uniqueNames(reconcilers);
        checkOverridesMatchReconcilers(properties, byName.keySet());

        ControllerManager manager = builder.build();
        ControllerConfigFactory configs = new ControllerConfigFactory(properties);
        for (ReconcilerBean bean : byName.values()) {
            ControllerConfig<?> config = configs.create(bean);
            try {
                register(manager, config, bean.reconciler());
            } catch (KubeloopConfigurationException e) {
                // a setting that does not fit the reconciler (a finalizer on one that is no Cleaner)
                throw e.setting() == null ? e : configs.explain(bean, config.name(), e);
            }
        }
        return manager;
    }

    @SuppressWarnings("unchecked")
    private static <T extends HasMetadata> void register(ControllerManager manager, ControllerConfig<T> config,
            ResourceReconciler<?> reconciler) {
        // the config's type was resolved from this reconciler's own type argument
        manager.register(config, (ResourceReconciler<T>) reconciler);
    }

    private static Map<String, ReconcilerBean> uniqueNames(List<ReconcilerBean> reconcilers) {
        Map<String, List<ReconcilerBean>> grouped = reconcilers.stream().collect(
                Collectors.groupingBy(ControllerConfigFactory::nameOf, LinkedHashMap::new, Collectors.toList()));
        Map<String, ReconcilerBean> unique = new LinkedHashMap<>();
        for (Map.Entry<String, List<ReconcilerBean>> entry : grouped.entrySet()) {
            if (entry.getValue().size() > 1) {
                String beans = entry.getValue().stream().map(bean -> "'" + bean.beanName() + "' ("
                        + bean.userClass().getName() + ")").collect(Collectors.joining(" and "));
                throw new KubeloopConfigurationException("Reconciler beans " + beans + " are both named '"
                        + entry.getKey() + "'. Names identify reconcilers in properties, metrics, logs and "
                        + "finalizers, so they must be unique.",
                        "Give each a distinct name with @Reconciler(name = ...); two reconcilers of one kind "
                                + "get the same default name (the kind in lower case).",
                        entry.getKey(), "name", null);
            }
            unique.put(entry.getKey(), entry.getValue().get(0));
        }
        return unique;
    }

    private static void checkOverridesMatchReconcilers(KubeloopProperties properties, Set<String> names) {
        for (String configured : properties.getReconcilers().keySet()) {
            if (!names.contains(configured)) {
                throw invalidProperty("kubeloop.reconcilers." + configured,
                        "does not match any reconciler (reconcilers: " + new TreeSet<>(names) + ")",
                        "Use the name of a reconciler (@Reconciler(name), or its primary kind in lower case), "
                                + "or remove the properties.", null);
            }
        }
    }

    /** Validates the rate limiter properties once, naming the one at fault, then hands out one limiter per controller. */
    private static Supplier<RateLimiter<ObjectKey>> rateLimiters(KubeloopProperties.RateLimiter settings) {
        Duration base = Settings.RATE_LIMITER_BASE_DELAY.check(settings.getBaseDelay());
        Duration max = Settings.RATE_LIMITER_MAX_DELAY.check(settings.getMaxDelay());
        double qps = Settings.RATE_LIMITER_QPS.check(settings.getQps());
        int burst = Settings.RATE_LIMITER_BURST.check(settings.getBurst());
        if (max.compareTo(base) < 0) {
            throw invalidProperty(Settings.RATE_LIMITER_MAX_DELAY.property(), "(" + Setting.format(max)
                    + ") must be at least " + Settings.RATE_LIMITER_BASE_DELAY.property() + " (" + Setting.format(base)
                    + ")", "Raise " + Settings.RATE_LIMITER_MAX_DELAY.property() + " or lower "
                    + Settings.RATE_LIMITER_BASE_DELAY.property() + ".", null);
        }
        return () -> new MaxOfRateLimiter<>(new ExponentialBackoffRateLimiter<>(base, max),
                new TokenBucketRateLimiter<>(qps, burst));
    }

    private static KubeloopConfigurationException invalidProperty(String property, String problem, String action,
            Throwable cause) {
        return new KubeloopConfigurationException("Property " + property + " " + problem + ".", action, cause);
    }
}
