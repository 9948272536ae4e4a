package dev.kubeloop.autoconfigure.endpoint;

import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.introspection.Introspection;
import dev.kubeloop.runtime.manager.ControllerManager;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code /actuator/kubeloop} introspection endpoint ({@link KubeloopEndpoint}), created only
 * when the application exposes it ({@code management.endpoints.web.exposure.include=kubeloop});
 * its write operation additionally needs {@code management.endpoint.kubeloop.access=unrestricted}.
 */
@AutoConfiguration(after = KubeloopAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(ControllerManager.class)
@ConditionalOnAvailableEndpoint(KubeloopEndpoint.class)
public final class KubeloopEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    KubeloopEndpoint kubeloopEndpoint(ControllerManager kubeloopControllerManager,
            KubernetesClient kubernetesClient) {
        return new KubeloopEndpoint(new Introspection(kubeloopControllerManager),
                kubernetesClient.getKubernetesSerialization());
    }
}
