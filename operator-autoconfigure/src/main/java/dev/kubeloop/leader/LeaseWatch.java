package dev.kubeloop.leader;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one Lease (an informer on its name), so that a standby learns at once that the holder
 * released it or renewed it, instead of at its next acquire attempt (every retry period plus
 * jitter: 2 to 4.4 s by default). Without list/watch permission on Leases it logs once and leader
 * election falls back to polling. Calls back with the Lease, or null once it is deleted, on
 * fabric8's informer thread. Thread-safe: started once, closed once.
 */
final class LeaseWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaseWatch.class);

    private final SharedIndexInformer<Lease> informer;
    private final String lease;
    private volatile boolean closed;

    LeaseWatch(KubernetesClient client, String namespace, String name, Consumer<Lease> changed) {
        this.lease = namespace + "/" + name;
        this.informer = client.leases().inNamespace(namespace).withName(name).runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Lease added) {
                changed.accept(added);
            }

            @Override
            public void onUpdate(Lease oldLease, Lease newLease) {
                changed.accept(newLease);
            }

            @Override
            public void onDelete(Lease deleted, boolean deletedFinalStateUnknown) {
                changed.accept(null);
            }
        });
    }

    void start() {
        informer.start().whenComplete((ignored, error) -> {
            if (error != null && !closed) {
                log.warn("Cannot watch Lease {} ({}); a standby notices a released or expired Lease only at its next "
                        + "acquire attempt. Grant list and watch on leases for fast failover.", lease, error.toString());
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        informer.stop();
    }
}
