package dev.kubeloop.autoconfigure;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.MaxOfRateLimiter;
import dev.kubeloop.queue.RateLimiter;
import dev.kubeloop.queue.TokenBucketRateLimiter;
import dev.kubeloop.runtime.ControllerConfig;
import dev.kubeloop.runtime.ControllerManager;
import dev.kubeloop.runtime.ControllerObserver;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.WorkGate;
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

    private static final String RATE_LIMITER_ACTION = "Set kubeloop.rate-limiter.base-delay and max-delay to positive "
            + "durations (max-delay at least base-delay), qps to a positive number and burst to at least 1.";

    private ControllerManagerFactory() {
    }

    static ControllerManager create(KubernetesClient client, KubeloopProperties properties,
            List<ReconcilerBean> reconcilers, List<ControllerObserver> observers, WorkGate gate) {
        ControllerManager.Builder builder = ControllerManager.builder(client)
                .workGate(gate)
                .stripManagedFields(properties.isStripManagedFields())
                .rateLimiter(rateLimiters(properties.getRateLimiter()));
        observers.forEach(builder::observer);
        try {
            builder.listPageSize(properties.getInformerListPageSize());
        } catch (IllegalArgumentException e) {
            throw invalidProperty("kubeloop.informer-list-page-size", "must not be negative, was "
                    + properties.getInformerListPageSize(), "Set it to 0 (one list response) or a page size such "
                    + "as 500.", e);
        }
        try {
            builder.recentErrors(properties.getIntrospection().getLastErrors());
        } catch (IllegalArgumentException e) {
            throw invalidProperty("kubeloop.introspection.last-errors", "must not be negative, was "
                    + properties.getIntrospection().getLastErrors(), "Set it to 0 or more (default 20).", e);
        }
        try {
            builder.cacheSyncTimeout(properties.getCacheSyncTimeout());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw invalidProperty("kubeloop.cache-sync-timeout", "must be a positive duration, was "
                    + properties.getCacheSyncTimeout(), "Set it to a positive duration such as 2m.", e);
        }
        try {
            builder.shutdownTimeout(properties.getShutdownTimeout());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw invalidProperty("kubeloop.shutdown-timeout", "must not be negative, was "
                    + properties.getShutdownTimeout(), "Set it to a duration such as 30s.", e);
        }
        Map<String, ReconcilerBean> byName = uniqueNames(reconcilers);
        checkOverridesMatchReconcilers(properties, byName.keySet());

        ControllerManager manager = builder.build();
        ControllerConfigFactory configs = new ControllerConfigFactory(properties);
        for (ReconcilerBean bean : byName.values()) {
            register(manager, configs.create(bean), bean.reconciler());
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
        Duration base = settings.getBaseDelay();
        Duration max = settings.getMaxDelay();
        double qps = settings.getQps();
        int burst = settings.getBurst();
        String prefix = "kubeloop.rate-limiter.";
        if (base == null || base.isNegative() || base.isZero()) {
            throw invalidProperty(prefix + "base-delay", "must be a positive duration, was " + base, RATE_LIMITER_ACTION,
                    null);
        }
        if (max == null || max.compareTo(base) < 0) {
            throw invalidProperty(prefix + "max-delay", "(" + max + ") must be at least " + prefix + "base-delay ("
                    + base + ")", RATE_LIMITER_ACTION, null);
        }
        if (!(qps > 0) || Double.isInfinite(qps)) {
            throw invalidProperty(prefix + "qps", "must be a positive number, was " + qps, RATE_LIMITER_ACTION, null);
        }
        if (burst < 1) {
            throw invalidProperty(prefix + "burst", "must be at least 1, was " + burst, RATE_LIMITER_ACTION, null);
        }
        Supplier<RateLimiter<ObjectKey>> supplier = () -> new MaxOfRateLimiter<>(
                new ExponentialBackoffRateLimiter<>(base, max), new TokenBucketRateLimiter<>(qps, burst));
        try {
            supplier.get();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw invalidProperty("kubeloop.rate-limiter", e.getMessage(), RATE_LIMITER_ACTION, e);
        }
        return supplier;
    }

    private static KubeloopConfigurationException invalidProperty(String property, String problem, String action,
            Throwable cause) {
        return new KubeloopConfigurationException("Property " + property + " " + problem + ".", action, cause);
    }
}
