package dev.kubeloop.benchmarks.bounds.app;

import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The operator whose footprint is measured: one {@code @Reconciler} in this package, found by
 * Kubeloop's scan, and a client bean pointed at the resource-bounds server, with fabric8's
 * defaults (as every benchmark contender's).
 */
@SpringBootApplication
public class BoundsApp {

    @Bean(destroyMethod = "close")
    KubernetesClient kubernetesClient(@Value("${bounds.master-url}") String masterUrl,
            @Value("${bounds.namespace}") String namespace) {
        return ClientFactory.create(masterUrl, namespace);
    }
}
