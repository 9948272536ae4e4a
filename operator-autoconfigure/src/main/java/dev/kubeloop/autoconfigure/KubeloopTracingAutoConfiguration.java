package dev.kubeloop.autoconfigure;

import dev.kubeloop.observation.ObservationTracing;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.Tracing;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Traces reconciles through the application's {@link ObservationRegistry} (Spring Boot's, with
 * the actuator): a {@link Tracing} bean that the controller manager uses. The registry is what
 * decides: with a tracing bridge (Brave or OpenTelemetry) and an exporter, observations become
 * spans; with no handler (or none of the actuator), the registry is a no-op and the runtime
 * traces nothing. {@code kubeloop.tracing.enabled=false} leaves the manager untraced whatever the
 * registry.
 */
@AutoConfiguration(before = KubeloopAutoConfiguration.class, afterName =
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@Conditional({OnKubeloopEnabledCondition.class, OnTracingEnabledCondition.class})
@EnableConfigurationProperties(KubeloopTracingProperties.class)
public final class KubeloopTracingAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Tracing kubeloopTracing(ObjectProvider<ObservationRegistry> registry, KubeloopTracingProperties properties) {
        String annotation = Settings.TRACING_ANNOTATION.check(properties.getAnnotation());
        return new ObservationTracing(registry.getIfAvailable(() -> ObservationRegistry.NOOP), annotation);
    }
}
