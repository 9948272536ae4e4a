package dev.kubeloop.autoconfigure.tracing;

import dev.kubeloop.autoconfigure.OnKubeloopEnabledCondition;
import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.observation.ObservationTracing;
import dev.kubeloop.runtime.Settings;
import dev.kubeloop.runtime.Tracing;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.util.ClassUtils;

/**
 * Traces reconciles through the application's {@link ObservationRegistry} (Spring Boot's, with
 * the actuator): a {@link Tracing} bean that the controller manager and the webhook server use.
 * The application's tracer decides: with a tracing bridge (Brave or OpenTelemetry, a Micrometer
 * Tracing {@code Tracer} bean that is not the no-op one) the observations become spans, and meter
 * handlers see them too; without one, {@link Tracing#OFF}: the actuator's registry alone (which
 * every starter application has, with a meter handler) does not switch the runtime's per-key work
 * on, so an application that does not trace pays nothing. {@code kubeloop.tracing.enabled=false}
 * leaves everything untraced whatever the tracer.
 */
@AutoConfiguration(before = KubeloopAutoConfiguration.class, afterName = {
    "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
    "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration"})
@ConditionalOnClass(ObservationRegistry.class)
@Conditional({OnKubeloopEnabledCondition.class, OnTracingEnabledCondition.class})
@EnableConfigurationProperties(KubeloopTracingProperties.class)
public final class KubeloopTracingAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Tracing kubeloopTracing(ObjectProvider<ObservationRegistry> registry, KubeloopTracingProperties properties,
            ListableBeanFactory beans) {
        String annotation = Settings.TRACING_ANNOTATION.check(properties.getAnnotation());
        ObservationRegistry observations = registry.getIfAvailable(() -> ObservationRegistry.NOOP);
        if (observations.isNoop() || !Tracers.traces(beans)) {
            return Tracing.OFF;
        }
        return new ObservationTracing(observations, annotation, properties.isPropagate());
    }

    /** Whether the application has a real tracer; touches Micrometer Tracing's types only when it is there. */
    static final class Tracers {

        private static final String TRACER = "io.micrometer.tracing.Tracer";

        private Tracers() {
        }

        static boolean traces(ListableBeanFactory beans) {
            return ClassUtils.isPresent(TRACER, Tracers.class.getClassLoader()) && Present.traces(beans);
        }

        private static final class Present {
            static boolean traces(ListableBeanFactory beans) {
                Tracer tracer = beans.getBeanProvider(Tracer.class).getIfUnique();
                return tracer != null && tracer != Tracer.NOOP;
            }
        }
    }
}
