package dev.kubeloop.autoconfigure.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.Tracing;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Kubeloop traces when the application does: the actuator's registry alone (with its meter
 * handler, in every starter application) leaves the runtime untraced, and so does Micrometer
 * Tracing's no-op tracer; {@code kubeloop.tracing.enabled=false} creates no tracing at all;
 * {@code kubeloop.tracing.propagate} reaches the runtime, off unless set.
 */
class TracingAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KubeloopTracingAutoConfiguration.class))
            .withBean(ObservationRegistry.class, () -> {
                ObservationRegistry registry = ObservationRegistry.create();
                registry.observationConfig().observationHandler(context -> true); // as a meter handler would
                return registry;
            });

    @Test
    void anObservationRegistryWithoutATracerLeavesTheRuntimeUntraced() {
        runner.run(context -> assertThat(context.getBean(Tracing.class)).isSameAs(Tracing.OFF));
    }

    @Test
    void theNoopTracerLeavesTheRuntimeUntraced() {
        runner.withBean(Tracer.class, () -> Tracer.NOOP)
                .run(context -> assertThat(context.getBean(Tracing.class)).isSameAs(Tracing.OFF));
    }

    @Test
    void switchedOffThereIsNoTracing() {
        runner.withPropertyValues("kubeloop.tracing.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(Tracing.class));
    }

    @Test
    void propagateIsOffUnlessSet() {
        ApplicationContextRunner tracing = runner.withBean(Tracer.class, () -> Mockito.mock(Tracer.class));
        tracing.run(context -> assertThat(context.getBean(Tracing.class).propagates()).isFalse());
        tracing.withPropertyValues("kubeloop.tracing.propagate=true")
                .run(context -> assertThat(context.getBean(Tracing.class).propagates()).isTrue());
    }
}
