package dev.kubeloop.sample.demo;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Stands in for the kubelet and the Deployment controller of a real cluster, which the embedded
 * API server does not have: it reports every Deployment's pods as ready, so demo Websites turn
 * Ready. Demo mode only. Runs on the informer's thread; stateless besides the informer.
 */
final class DemoKubelet implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DemoKubelet.class);

    private final KubernetesClient client;
    private volatile SharedIndexInformer<Deployment> informer;

    DemoKubelet(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public void start() {
        informer = client.apps().deployments().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Deployment deployment) {
                markReady(deployment);
            }

            @Override
            public void onUpdate(Deployment before, Deployment deployment) {
                markReady(deployment);
            }

            @Override
            public void onDelete(Deployment deployment, boolean unknownFinalState) {
            }
        });
    }

    private void markReady(Deployment deployment) {
        Integer replicas = deployment.getSpec() == null ? null : deployment.getSpec().getReplicas();
        int want = replicas == null ? 1 : replicas;
        DeploymentStatus status = deployment.getStatus();
        if (status != null && Objects.equals(status.getReadyReplicas(), want)
                && Objects.equals(status.getObservedGeneration(), deployment.getMetadata().getGeneration())) {
            return;
        }
        try {
            client.apps().deployments().inNamespace(deployment.getMetadata().getNamespace())
                    .withName(deployment.getMetadata().getName()).editStatus(current -> {
                        DeploymentStatus next = new DeploymentStatus();
                        next.setReplicas(want);
                        next.setReadyReplicas(want);
                        next.setAvailableReplicas(want);
                        next.setUpdatedReplicas(want);
                        next.setObservedGeneration(current.getMetadata().getGeneration());
                        current.setStatus(next);
                        return current;
                    });
        } catch (KubernetesClientException e) {
            log.debug("Demo kubelet could not update deployment {}/{}: {}", deployment.getMetadata().getNamespace(),
                    deployment.getMetadata().getName(), e.getMessage());
        }
    }

    @Override
    public void stop() {
        SharedIndexInformer<Deployment> running = informer;
        if (running != null) {
            running.close();
        }
        informer = null;
    }

    @Override
    public boolean isRunning() {
        return informer != null;
    }
}
