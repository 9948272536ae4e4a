package dev.kubeloop.benchmarks.compare.contender;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * "bound": a bare informer whose handler only calls the probe. What any framework must at least
 * pay to see the objects; it writes nothing, so its completion is seen in this process.
 */
final class BoundContender implements Contender {

    private final KubernetesClient client;
    private final BareInformer informer;

    BoundContender(ContenderOptions options, ReconcileProbe probe) {
        client = ClientFactory.create(options.masterUrl(), options.namespace());
        informer = new BareInformer(client, options.namespace(), probe::reconcileStarted);
    }

    @Override
    public void start() throws Exception {
        informer.startAndSync();
    }

    @Override
    public void close() {
        informer.close();
        client.close();
    }
}
