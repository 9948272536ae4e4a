package dev.kubeloop.benchmarks.compare.contender.kubeloop;

import dev.kubeloop.benchmarks.compare.contender.ClientFactory;
import dev.kubeloop.benchmarks.compare.contender.ContenderOptions;
import dev.kubeloop.benchmarks.compare.contender.ReconcileProbe;
import dev.kubeloop.benchmarks.compare.contender.StatusWrite;
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

    /**
     * For Spring's AOT processing only ({@code SpringApplicationAotProcessor} runs an application's
     * main and stops it before the refresh): the contender as {@link KubeloopContender} starts it.
     */
    public static void main(String[] args) {
        ContenderOptions options = new ContenderOptions("kubeloop", "https://aot.invalid", "aot", 4, false, 0,
                StatusWrite.SSA);
        KubeloopContender.application(options, new ReconcileProbe(null), -1).run(args);
    }

    @Bean(destroyMethod = "close")
    KubernetesClient kubernetesClient(ContenderOptions options) {
        return ClientFactory.create(options.masterUrl(), options.namespace());
    }
}
