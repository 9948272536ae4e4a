package dev.kubeloop.autoconfigure.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.autoconfigure.endpoint.KubeloopEndpoint;
import dev.kubeloop.autoconfigure.endpoint.KubeloopEndpointAutoConfiguration;
import dev.kubeloop.autoconfigure.health.KubeloopHealthAutoConfiguration;
import dev.kubeloop.autoconfigure.metrics.KubeloopMetricsAutoConfiguration;
import dev.kubeloop.health.KubeloopHealthIndicator;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import dev.kubeloop.testing.WorkerKiller;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The metrics, health, liveness and endpoint wiring: which beans exist when, and what they do to Boot's probes. */
class ActuatorAutoConfigurationTest {

    private MockCluster cluster;
    private ApplicationContextRunner runner;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.withWidgetCrd();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class,
                        KubeloopMetricsAutoConfiguration.class, KubeloopHealthAutoConfiguration.class,
                        KubeloopEndpointAutoConfiguration.class, ApplicationAvailabilityAutoConfiguration.class,
                        EndpointAutoConfiguration.class, HealthContributorAutoConfiguration.class,
                        HealthContributorRegistryAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
                        AvailabilityProbesAutoConfiguration.class, AvailabilityHealthContributorAutoConfiguration.class))
                .withBean(KubernetesClient.class, cluster::client)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new);
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void metricsHealthAndTheReadinessGroupAreWiredByDefault() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(KubeloopMetrics.class)
                    .hasSingleBean(KubeloopHealthIndicator.class).doesNotHaveBean(KubeloopEndpoint.class);
            HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
            assertThat(groups.get("readiness").isMember("kubeloop")).isTrue();
            assertThat(groups.get("readiness").isMember("readinessState")).isTrue();
            assertThat(groups.get("liveness").isMember("kubeloop")).isFalse();
            assertThat(context.getBean(MeterRegistry.class).find(KubeloopMetrics.WORKQUEUE_DEPTH).gauges())
                    .as("no controllers, no series").isEmpty();
        });
    }

    @Test
    void anExplicitReadinessMembershipIsLeftAsConfigured() {
        runner.withPropertyValues("management.endpoint.health.group.readiness.include=readinessState")
                .run(context -> assertThat(context.getBean(HealthEndpointGroups.class).get("readiness")
                        .isMember("kubeloop")).isFalse());
    }

    @Test
    void theHealthContributorCanBeSwitchedOff() {
        runner.withPropertyValues("management.health.kubeloop.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(KubeloopHealthIndicator.class);
            assertThat(context.getBean(HealthEndpointGroups.class).get("readiness").isMember("kubeloop")).isFalse();
        });
    }

    @Test
    void theEndpointExistsOnceExposed() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=kubeloop")
                .run(context -> assertThat(context).hasSingleBean(KubeloopEndpoint.class));
    }

    @Test
    void withoutAMeterRegistryThereAreNoMetrics() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class,
                        KubeloopMetricsAutoConfiguration.class))
                .withBean(KubernetesClient.class, cluster::client)
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(KubeloopMetrics.class)
                        .hasSingleBean(ControllerManager.class));
    }

    @Test
    void livenessIsCorrectWhileReconcilesFailAndBrokenWhenAWorkerDies() {
        runner.withUserConfiguration(FailingReconcilerAndListener.class).run(context -> {
            assertThat(context).hasNotFailed();
            ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
            assertThat(availability.getLivenessState()).as("set when the manager started")
                    .isEqualTo(LivenessState.CORRECT);

            cluster.client().resource(Widget.named("ns", "fails")).create();
            ControllerManager manager = context.getBean(ControllerManager.class);
            eventually().until(() -> manager.controller("widget").orElseThrow().count(ReconcileOutcome.ERROR) >= 3);
            assertThat(availability.getLivenessState()).as("failing reconciles are not a broken runtime")
                    .isEqualTo(LivenessState.CORRECT);

            context.getBean(WorkerKiller.class).arm();
            eventually().until(() -> availability.getLivenessState() == LivenessState.BROKEN);
            assertThat(context.getBean(KubeloopAvailability.class).brokenReason())
                    .contains("a worker of controller widget died", "worker killed by the test");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class FailingReconcilerAndListener {

        @Bean
        ResourceReconciler<Widget> failingReconciler() {
            return (widget, context) -> {
                throw new IllegalStateException("always fails");
            };
        }

        @Bean
        WorkerKiller workerKiller() {
            return WorkerKiller.disarmed("worker killed by the test");
        }
    }
}
