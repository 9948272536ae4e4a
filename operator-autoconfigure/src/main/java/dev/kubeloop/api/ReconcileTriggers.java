package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The {@link ReconcileTrigger}s of an application's reconcilers, by name or by primary type. With
 * Spring Boot, a bean: {@code @Autowired ReconcileTriggers triggers;}
 * {@code triggers.of(Website.class).enqueue(ObjectKey.of("team-a", "shop"))}. Thread-safe.
 */
public interface ReconcileTriggers {

    /**
     * The trigger of the reconciler named {@code reconciler}.
     *
     * @throws IllegalArgumentException if there is none, naming the reconcilers there are
     */
    ReconcileTrigger of(String reconciler);

    /**
     * The trigger of the one reconciler of {@code primaryType}.
     *
     * @throws IllegalArgumentException if no reconciler or several reconcile that type (then name it)
     */
    ReconcileTrigger of(Class<? extends HasMetadata> primaryType);
}
