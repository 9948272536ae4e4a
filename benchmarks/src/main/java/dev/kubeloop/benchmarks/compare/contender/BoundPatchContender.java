package dev.kubeloop.benchmarks.compare.contender;

import dev.kubeloop.benchmarks.compare.model.BenchResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * "bound+patch": the bare informer hands keys to W plain threads through an unbounded FIFO, and
 * each thread reads the cached object and writes its status with the smallest request of the
 * invocation's {@link StatusWrite}: a JSON merge patch of {@code status.observedGeneration}, or
 * a forced server-side apply of just that field. No dedup, no rate limiting, no retries beyond
 * putting a failed key back: what any framework must pay to do the work.
 */
final class BoundPatchContender implements Contender {

    private static final PatchContext SSA = new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager("bound-patch").withForce(true).build();

    private final KubernetesClient client;
    private final String namespace;
    private final int workers;
    private final StatusWrite write;
    private final ReconcileProbe probe;
    private final BlockingQueue<String> keys = new LinkedBlockingQueue<>();
    private final BareInformer informer;
    private final ExecutorService pool;

    BoundPatchContender(ContenderOptions options, ReconcileProbe probe) {
        this.client = ClientFactory.create(options.masterUrl(), options.namespace());
        this.namespace = options.namespace();
        this.workers = options.workers();
        this.write = options.write();
        this.probe = probe;
        this.informer = new BareInformer(client, namespace, resource -> keys.add(resource.getMetadata().getName()));
        AtomicInteger threadNumber = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(workers,
                task -> new Thread(task, "bound-patch-worker-" + threadNumber.incrementAndGet()));
    }

    @Override
    public void start() throws Exception {
        for (int i = 0; i < workers; i++) {
            pool.execute(this::work);
        }
        informer.startAndSync();
    }

    private void work() {
        try {
            while (true) {
                String name = keys.take();
                try {
                    reconcile(name);
                } catch (RuntimeException e) {
                    System.err.println("bound+patch: patch of " + name + " failed, retrying: " + e);
                    keys.add(name);
                }
            }
        } catch (InterruptedException e) {
            // close(): stop working
            Thread.currentThread().interrupt();
        }
    }

    private void reconcile(String name) {
        BenchResource resource = informer.get(namespace + "/" + name);
        if (resource == null) {
            return;
        }
        probe.reconcileStarted(resource);
        // a stub with just the name: fabric8 clones the item it is given, and needs it only for the URL
        BenchResource target = new BenchResource();
        target.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
        var status = client.resources(BenchResource.class).inNamespace(namespace).resource(target).subresource("status");
        if (write == StatusWrite.SSA) {
            status.patch(SSA, "{\"apiVersion\":\"" + BenchResource.GROUP + "/" + BenchResource.VERSION
                    + "\",\"kind\":\"" + BenchResource.KIND + "\",\"metadata\":{\"name\":\"" + name
                    + "\",\"namespace\":\"" + namespace + "\"},\"status\":{\"observedGeneration\":"
                    + resource.generation() + "}}");
        } else {
            status.patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"status\":{\"observedGeneration\":" + resource.generation() + "}}");
        }
    }

    @Override
    public void close() {
        informer.close();
        pool.shutdownNow();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing anyway; the caller sees the interrupt
        }
        client.close();
    }
}
