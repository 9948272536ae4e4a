package dev.kubeloop.benchmarks.compare.contender.kubeloop;

import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.benchmarks.compare.contender.ContenderOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A minimal Kubeloop operator: one {@code @Reconciler} in this package, found by Kubeloop's scan
 * of the application's packages, and a client bean pointed at the API server under test (which
 * replaces the auto-configured one, exactly as an application would do it).
 */
@SpringBootApplication
public class KubeloopBenchApp {

    @Bean(destroyMethod = "close")
    KubernetesClient kubernetesClient(ContenderOptions options) {
        return ClientFactory.create(options.masterUrl(), options.namespace());
    }
}
