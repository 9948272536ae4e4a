package dev.kubeloop.sharding;

import dev.kubeloop.runtime.NamedThreadFactory;
import dev.kubeloop.runtime.cache.ShardLayout;
import dev.kubeloop.runtime.manager.ShardControl.PrimaryScope;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives new primaries their slot label, so that the informers of their bucket pick them up: no
 * webhook, no external sharder. Every member watches the primaries that have no label yet
 * ({@code !shard.kubeloop.dev/<ring>}; an empty set once the ring caught up, so the watch costs
 * little), and the member that holds an object's bucket writes the label with a JSON merge patch
 * (unlocked: the label's value follows from the uid, so two writers would agree). A new object is
 * labelled one watch event and one PATCH after its creation; one whose bucket is between holders
 * is labelled by the next holder when it opens the bucket ({@link #bucketOpened}).
 *
 * <p>Needs {@code patch} on the primary types. Threads: the informers' own, and
 * {@code kubeloop-sharding-labels} for the PATCHes (so that informer threads never block on the
 * API server); a failed PATCH is retried after a second, five times.
 *
 * <p>State ownership: the informers are created by {@link #start} and stopped by {@link #close},
 * both on the sharding thread; {@code pending} (uids with a PATCH queued) is a concurrent set.
 */
final class SlotLabeler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SlotLabeler.class);
    private static final int ATTEMPTS = 5;

    private final KubernetesClient client;
    private final ShardLayout layout;
    private final IntPredicate holds;
    private final List<Scoped<?>> informers = new ArrayList<>();
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final AtomicLong written = new AtomicLong();
    private final ScheduledThreadPoolExecutor patches = new ScheduledThreadPoolExecutor(1,
            runnable -> NamedThreadFactory.single("kubeloop-sharding-labels", runnable));

    /** One informer of unlabelled primaries and the type it reads. */
    private record Scoped<T extends HasMetadata>(Class<T> type, SharedIndexInformer<T> informer) {
    }

    /**
     * @param holds whether this replica holds (and has opened) a bucket: only then does it label
     *     the bucket's objects
     */
    SlotLabeler(KubernetesClient client, ShardLayout layout, IntPredicate holds) {
        this.client = client;
        this.layout = layout;
        this.holds = holds;
        patches.setRemoveOnCancelPolicy(true);
    }

    /** Watches the unlabelled primaries of every scope. */
    void start(List<PrimaryScope> scopes) {
        for (PrimaryScope scope : scopes) {
            String selector = scope.labelSelector().isEmpty() ? layout.unlabeledSelector()
                    : scope.labelSelector() + "," + layout.unlabeledSelector();
            if (scope.namespaces().isEmpty()) {
                informers.add(watch(scope.type(), null, selector));
            } else {
                scope.namespaces().forEach(namespace -> informers.add(watch(scope.type(), namespace, selector)));
            }
        }
    }

    private <T extends HasMetadata> Scoped<T> watch(Class<T> type, String namespace, String selector) {
        SharedIndexInformer<T> informer = (namespace == null ? client.resources(type).inAnyNamespace()
                : client.resources(type).inNamespace(namespace)).withLabelSelector(selector).runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                offer(type, object);
            }

            @Override
            public void onUpdate(T oldObject, T newObject) {
                offer(type, newObject);
            }

            @Override
            public void onDelete(T object, boolean deletedFinalStateUnknown) {
                // nothing to label
            }
        });
        informer.start().whenComplete((ignored, error) -> {
            if (error != null) {
                log.warn("Cannot watch unlabelled {} for the ring {}: new objects get no slot label and are not "
                        + "reconciled until this works (grant list and watch on them): {}",
                        HasMetadata.getFullResourceName(type), layout.ring(), error.toString());
            }
        });
        return new Scoped<>(type, informer);
    }

    /** This replica opened {@code bucket}: labels the bucket's unlabelled objects that arrived meanwhile. */
    void bucketOpened(int bucket) {
        for (Scoped<?> scoped : informers) {
            relabel(scoped, bucket);
        }
    }

    private <T extends HasMetadata> void relabel(Scoped<T> scoped, int bucket) {
        for (T object : scoped.informer().getStore().list()) {
            if (layout.bucketOf(object) == bucket) {
                offer(scoped.type(), object);
            }
        }
    }

    /** Primaries labelled by this replica since start. */
    long written() {
        return written.get();
    }

    private <T extends HasMetadata> void offer(Class<T> type, T object) {
        String uid = object.getMetadata().getUid();
        int bucket = layout.bucketOf(object);
        if (uid == null || bucket < 0 || !holds.test(bucket) || hasLabel(object) || !pending.add(uid)) {
            return;
        }
        schedule(type, object, 1, 0);
    }

    private <T extends HasMetadata> void schedule(Class<T> type, T object, int attempt, long delayMillis) {
        try {
            patches.schedule(() -> patch(type, object, attempt), delayMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            pending.remove(object.getMetadata().getUid()); // closed
        }
    }

    private <T extends HasMetadata> void patch(Class<T> type, T object, int attempt) {
        String uid = object.getMetadata().getUid();
        String namespace = object.getMetadata().getNamespace();
        String name = object.getMetadata().getName();
        try {
            String body = "{\"metadata\":{\"labels\":{\"" + layout.labelKey() + "\":\"" + layout.slotLabel(uid)
                    + "\"}}}";
            (namespace == null ? client.resources(type).withName(name)
                    : client.resources(type).inNamespace(namespace).withName(name))
                    .patch(PatchContext.of(PatchType.JSON_MERGE), body);
            written.incrementAndGet();
            pending.remove(uid);
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND || attempt >= ATTEMPTS) {
                pending.remove(uid);
                if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                    log.warn("Cannot write the slot label of {} {}/{} for the ring {} after {} attempts; it is not "
                            + "reconciled until it has one (grant patch on it): {}", HasMetadata.getKind(type),
                            namespace, name, layout.ring(), attempt, e.getMessage());
                }
                return;
            }
            schedule(type, object, attempt + 1, 1000);
        } catch (RuntimeException e) {
            pending.remove(uid);
            log.warn("Cannot write the slot label of {} {}/{}: {}", HasMetadata.getKind(type), namespace, name,
                    e.toString());
        }
    }

    private boolean hasLabel(HasMetadata object) {
        return object.getMetadata().getLabels() != null
                && object.getMetadata().getLabels().containsKey(layout.labelKey());
    }

    @Override
    public void close() {
        informers.forEach(scoped -> scoped.informer().stop());
        patches.shutdownNow();
    }
}
