package dev.kubeloop.runtime.cache;

import dev.kubeloop.runtime.NamedThreadFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the types of optional informers as they come and go: every poll interval it asks API
 * discovery whether each type is served, starts the informers of a type that appeared and stops
 * (reporting their objects deleted) those of a type that went. Discovery needs no RBAC and costs
 * one request per API group-version; a watch on CustomResourceDefinitions would need cluster-wide
 * permissions that namespaced operators do not have.
 *
 * <p>State ownership: one scheduler thread ({@code kubeloop-optional-types}) does all the work;
 * the entries are thread-safe on their own. Started by the registry when it has optional
 * informers, shut down by {@link #close()}.
 */
final class OptionalTypes implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OptionalTypes.class);

    private final Map<Class<? extends HasMetadata>, List<InformerEntry<?>>> byType = new LinkedHashMap<>();
    private final Predicate<Class<? extends HasMetadata>> served;
    private final InformerStarter starter;
    private final ScheduledExecutorService scheduler;

    /** Starts an entry's informer the way the registry does. */
    @FunctionalInterface
    interface InformerStarter {
        void start(InformerEntry<?> entry);
    }

    OptionalTypes(List<InformerEntry<?>> entries, Predicate<Class<? extends HasMetadata>> served,
            InformerStarter starter) {
        for (InformerEntry<?> entry : entries) {
            byType.computeIfAbsent(entry.key().type(), type -> new ArrayList<>()).add(entry);
        }
        this.served = served;
        this.starter = starter;
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1,
                runnable -> NamedThreadFactory.single("kubeloop-optional-types", runnable));
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.scheduler = executor;
    }

    /** Polls every {@code interval}, the first time after one interval (start-up just checked). */
    void start(Duration interval) {
        scheduler.scheduleWithFixedDelay(this::poll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One round: compare each type's availability with its informers' state. */
    void poll() {
        for (Map.Entry<Class<? extends HasMetadata>, List<InformerEntry<?>>> type : byType.entrySet()) {
            boolean isServed;
            try {
                isServed = served.test(type.getKey());
            } catch (RuntimeException e) {
                log.debug("Cannot tell whether {} is served, trying again later: {}",
                        HasMetadata.getFullResourceName(type.getKey()), e.toString());
                continue;
            }
            for (InformerEntry<?> entry : type.getValue()) {
                if (isServed && entry.informer() == null) {
                    log.info("Optional resource is served now, its informer starts: informer={}",
                            entry.key().describe());
                    starter.start(entry);
                } else if (!isServed && entry.informer() != null) {
                    log.info("Optional resource is no longer served, its informer stops and its cached objects "
                            + "are reported deleted: informer={}", entry.key().describe());
                    entry.stop(true);
                }
            }
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
