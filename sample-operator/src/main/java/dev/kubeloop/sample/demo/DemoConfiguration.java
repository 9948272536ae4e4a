package dev.kubeloop.sample.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Demo mode (see {@link DemoModeCondition}): the operator runs against an embedded API server.
 * Its {@link KubernetesClient} bean replaces the one Kubeloop's auto-configuration would build
 * from the kubeconfig, so everything else runs exactly as against a cluster.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(DemoModeCondition.class)
class DemoConfiguration {

    /** The server {@link DemoApiServerStarter} began starting before the refresh, else a new one. */
    @Bean(destroyMethod = "close")
    DemoApiServer demoApiServer(ObjectProvider<DemoApiServerStarter.Start> started) {
        DemoApiServerStarter.Start start = started.getIfAvailable();
        return start == null ? new DemoApiServer() : start.claim();
    }

    @Bean(destroyMethod = "")
    KubernetesClient kubernetesClient(DemoApiServer server) {
        return server.client(); // closed by the server
    }

    @Bean
    DemoKubelet demoKubelet(DemoApiServer server) {
        return new DemoKubelet(server.client());
    }

    @Bean
    DemoSites demoSites(DemoApiServer server) {
        return new DemoSites(server);
    }
}
