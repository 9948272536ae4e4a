package dev.kubeloop.autoconfigure.sharding;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.health.KubeloopHealthAutoConfiguration;
import dev.kubeloop.autoconfigure.leader.LeaderElectionAutoConfiguration;
import dev.kubeloop.autoconfigure.metrics.KubeloopMetricsAutoConfiguration;
import dev.kubeloop.autoconfigure.scan.ScannedWidgetReconciler;
import dev.kubeloop.autoconfigure.scan.ScanningApplication;
import dev.kubeloop.health.KubeloopHealthIndicator;
import dev.kubeloop.introspection.Introspection;
import dev.kubeloop.leader.LeaderElection;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ShardingState;
import dev.kubeloop.sharding.ShardingGate;
import dev.kubeloop.sharding.ShardingSettings;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** When sharding is on, where its settings come from, what it replaces, and what it reports. */
class ShardingAutoConfigurationTest {

    private final MockCluster cluster = MockCluster.withWidgetCrd();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class, ShardingAutoConfiguration.class,
                    LeaderElectionAutoConfiguration.class, KubeloopMetricsAutoConfiguration.class,
                    KubeloopHealthAutoConfiguration.class))
            .withBean(KubernetesClient.class, cluster::client)
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("spring.application.name=Widget Operator");

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void offByDefault() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ShardingGate.class));
    }

    @Test
    void onItReplacesLeaderElectionEvenOnKubernetesWithTheDefaults() {
        runner.withPropertyValues("kubeloop.sharding.enabled=true", "spring.main.cloud-platform=kubernetes")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(ShardingGate.class)
                            .doesNotHaveBean(LeaderElection.class);
                    ShardingSettings settings = context.getBean(ShardingGate.class).settings();
                    assertThat(settings.ring()).as("spring.application.name as a DNS label")
                            .isEqualTo("widget-operator");
                    assertThat(settings.namespace()).as("the client's, outside a pod").isEqualTo("test");
                    assertThat(settings.identity()).matches("[a-z0-9][-a-z0-9.]*-[0-9a-f]{8}");
                    assertThat(settings.buckets()).isEqualTo(32);
                    assertThat(settings.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
                    assertThat(settings.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
                    assertThat(settings.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(settings.drainTimeout()).isEqualTo(Duration.ofSeconds(30));
                });
    }

    @Test
    void bothOnFailsStartupNamingBothProperties() {
        runner.withPropertyValues("kubeloop.sharding.enabled=true", "kubeloop.leader-election.enabled=true")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .isInstanceOf(KubeloopConfigurationException.class)
                            .hasMessageContaining("kubeloop.sharding.enabled")
                            .hasMessageContaining("kubeloop.leader-election.enabled");
                });
    }

    @Test
    void aLoneReplicaHoldsEveryBucketReconcilesAndReportsItsRingInHealthMetricsAndIntrospection() {
        runner.withUserConfiguration(ScanningApplication.class)
                .withPropertyValues("kubeloop.sharding.enabled=true", "kubeloop.sharding.buckets=4",
                        "kubeloop.sharding.identity=replica-1", "kubeloop.sharding.namespace=ns",
                        "kubeloop.sharding.lease-duration=3s", "kubeloop.sharding.renew-deadline=2s",
                        "kubeloop.sharding.retry-period=500ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ControllerManager manager = context.getBean(ControllerManager.class);
                    eventually().until(() -> manager.sharding().map(s -> s.held().size() == 4).orElse(false));

                    cluster.createWithRandomUid(Widget.named("ns", "a"));
                    eventually().until(() -> context.getBean(ScannedWidgetReconciler.class).count("ns/a") >= 1);
                    Widget labelled = cluster.client().resources(Widget.class).inNamespace("ns").withName("a").get();
                    assertThat(labelled.getMetadata().getLabels()).as("the slot label written by the ring")
                            .containsKey("shard.kubeloop.dev/widget-operator");

                    ShardingState state = manager.sharding().orElseThrow();
                    assertThat(state.inRing()).isTrue();
                    assertThat(context.getBean(KubeloopHealthIndicator.class).health().getStatus())
                            .isEqualTo(Status.UP);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get(KubeloopMetrics.SHARDING_IN_RING).gauge().value()).isEqualTo(1);
                    assertThat(registry.get(KubeloopMetrics.SHARDING_BUCKETS).tag("state", "held").gauge().value())
                            .isEqualTo(4);
                    eventually().until(() -> registry.get(KubeloopMetrics.SHARDING_OBJECTS).tag("controller",
                            "widget").gauge().value() == 1);
                    assertThat(registry.get(KubeloopMetrics.SHARDING_HANDOFF).tag("direction", "in").functionTimer()
                            .count()).isEqualTo(4);
                    Map<String, Object> body = new Introspection(manager).manager();
                    assertThat(body).containsKey("sharding");
                    @SuppressWarnings("unchecked")
                    Map<String, Object> sharding = (Map<String, Object>) body.get("sharding");
                    assertThat(sharding).containsEntry("identity", "replica-1").containsEntry("inRing", true)
                            .containsKeys("members", "handoffs", "objects");
                });
    }
}
