package dev.kubeloop.autoconfigure.health;

import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.health.KubeloopHealthIndicator;
import dev.kubeloop.runtime.manager.ControllerManager;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code kubeloop} health contributor ({@link KubeloopHealthIndicator}), and its membership
 * of the readiness group: {@code /actuator/health/readiness} is OUT_OF_SERVICE until every cache
 * has synced. {@code management.health.kubeloop.enabled=false} switches it off.
 */
@AutoConfiguration(after = KubeloopAutoConfiguration.class, afterName = {
    "org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration",
    "org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration"})
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(ControllerManager.class)
@ConditionalOnEnabledHealthIndicator("kubeloop")
public final class KubeloopHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "kubeloopHealthIndicator")
    KubeloopHealthIndicator kubeloopHealthIndicator(ControllerManager kubeloopControllerManager) {
        return new KubeloopHealthIndicator(kubeloopControllerManager);
    }

    /** Adds the contributor to the readiness probe group, when the health endpoint is there. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor",
        "org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper"})
    static class ReadinessConfiguration {

        @Bean
        static ReadinessIncludesKubeloop kubeloopReadinessGroupPostProcessor(
                ObjectProvider<HealthEndpointProperties> properties) {
            return new ReadinessIncludesKubeloop(properties);
        }
    }
}
