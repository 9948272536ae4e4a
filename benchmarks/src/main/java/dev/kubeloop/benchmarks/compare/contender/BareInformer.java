package dev.kubeloop.benchmarks.compare.contender;

import dev.kubeloop.benchmarks.compare.model.BenchResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A plain fabric8 informer on the benchmark's objects that calls {@code onChange} for every add
 * and for every update that changes the generation: the same filtering the frameworks apply by
 * default, without which a contender would react to its own status writes forever.
 */
final class BareInformer implements AutoCloseable {

    private final SharedIndexInformer<BenchResource> informer;

    BareInformer(KubernetesClient client, String namespace, Consumer<BenchResource> onChange) {
        informer = client.resources(BenchResource.class).inNamespace(namespace).runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(BenchResource resource) {
                onChange.accept(resource);
            }

            @Override
            public void onUpdate(BenchResource old, BenchResource resource) {
                if (old.generation() != resource.generation()) {
                    onChange.accept(resource);
                }
            }

            @Override
            public void onDelete(BenchResource resource, boolean deletedFinalStateUnknown) {
                // nothing to do: the benchmark never deletes while measuring
            }
        });
    }

    /** Starts the informer and waits for its first list. */
    void startAndSync() throws Exception {
        informer.start().toCompletableFuture().get(2, TimeUnit.MINUTES);
    }

    /** The cached object with the informer's key ({@code namespace/name}), or null. */
    BenchResource get(String key) {
        return informer.getStore().getByKey(key);
    }

    @Override
    public void close() {
        informer.close();
    }
}
