package dev.kubeloop.autoconfigure.metrics;

import dev.kubeloop.autoconfigure.OnKubeloopEnabledCondition;
import dev.kubeloop.metrics.KubeloopMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Publishes the runtime's metrics with controller-runtime's names to the application's
 * {@link MeterRegistry} (with the Prometheus registry, at {@code /actuator/prometheus}): a
 * {@link KubeloopMetrics} observer that the controller manager picks up. Active when Micrometer is
 * on the classpath and a registry exists, i.e. after Spring Boot's metrics auto-configuration.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@Conditional(OnKubeloopEnabledCondition.class)
public final class KubeloopMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    KubeloopMetrics kubeloopMetrics(MeterRegistry meterRegistry) {
        return new KubeloopMetrics(meterRegistry);
    }
}
