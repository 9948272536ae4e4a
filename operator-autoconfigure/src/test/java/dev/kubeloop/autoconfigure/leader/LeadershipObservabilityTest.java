package dev.kubeloop.autoconfigure.leader;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.endpoint.KubeloopEndpoint;
import dev.kubeloop.autoconfigure.health.KubeloopHealthAutoConfiguration;
import dev.kubeloop.autoconfigure.metrics.KubeloopMetricsAutoConfiguration;
import dev.kubeloop.autoconfigure.scan.ScanningApplication;
import dev.kubeloop.health.KubeloopHealthIndicator;
import dev.kubeloop.introspection.Introspection;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.testing.MockCluster;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.ZonedDateTime;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A standby says it is one, and a leader too: in the health details (a standby is UP, hence
 * ready), in {@code leader_election_master_status{name}} and in {@code /actuator/kubeloop}.
 */
class LeadershipObservabilityTest {

    private static final String LEASE = "widget-operator-leader";

    private final MockCluster cluster = MockCluster.withWidgetCrd();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class,
                    LeaderElectionAutoConfiguration.class, KubeloopMetricsAutoConfiguration.class,
                    KubeloopHealthAutoConfiguration.class))
            .withUserConfiguration(ScanningApplication.class)
            .withBean(KubernetesClient.class, cluster::client)
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("spring.application.name=widget-operator", "kubeloop.leader-election.enabled=true",
                    "kubeloop.leader-election.lease-duration=3s", "kubeloop.leader-election.renew-deadline=2s",
                    "kubeloop.leader-election.retry-period=200ms");

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void aStandbyIsReadyAndSaysSoThenLeadsOnceTheLeaseIsFree() {
        Lease held = cluster.client().resource(new LeaseBuilder().withNewMetadata().withName(LEASE).withNamespace("test")
                .endMetadata().withNewSpec().withHolderIdentity("another-replica").withLeaseDurationSeconds(3600)
                .withAcquireTime(ZonedDateTime.now()).withRenewTime(ZonedDateTime.now()).endSpec().build()).create();

        runner.run(context -> {
            assertThat(context).hasNotFailed();
            ControllerManager manager = context.getBean(ControllerManager.class);
            KubeloopHealthIndicator health = context.getBean(KubeloopHealthIndicator.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            eventually().until(() -> "another-replica".equals(manager.leadership().holder()));

            assertThat(manager.leadership().role()).isEqualTo(LeadershipState.Role.STANDBY);
            assertThat(manager.workersRunning()).isFalse();
            Health standby = health.health();
            assertThat(standby.getStatus()).as("a standby with synced caches is ready").isEqualTo(Status.UP);
            assertThat(leadershipDetails(standby)).containsEntry("enabled", true).containsEntry("role", "STANDBY")
                    .containsEntry("lease", "test/" + LEASE).containsEntry("holder", "another-replica");
            assertThat(masterStatus(registry)).isEqualTo(0.0);

            Lease released = cluster.client().resource(held).get();
            released.getSpec().setHolderIdentity("");
            cluster.client().resource(released).update();

            eventually().until(() -> manager.leadership().isLeader() && manager.workersRunning());
            assertThat(masterStatus(registry)).isEqualTo(1.0);
            assertThat(leadershipDetails(health.health())).containsEntry("role", "LEADER")
                    .containsEntry("holder", manager.leadership().identity());
            String json = new KubeloopEndpoint(new Introspection(manager), cluster.client().getKubernetesSerialization()).controllers()
                    .getBody();
            assertThat(json).contains("\"role\":\"LEADER\"", "\"leaderElection\":true", "\"workersRunning\":true",
                    "\"lease\":\"test/" + LEASE + "\"");
        });
    }

    @Test
    void withoutLeaderElectionThereIsNoMasterStatusSeries() {
        runner.withPropertyValues("kubeloop.leader-election.enabled=false").run(context -> {
            assertThat(context.getBean(MeterRegistry.class).find(KubeloopMetrics.LEADER_ELECTION_MASTER_STATUS)
                    .gauges()).isEmpty();
            assertThat(leadershipDetails(context.getBean(KubeloopHealthIndicator.class).health()))
                    .containsEntry("enabled", false).containsEntry("role", "LEADER");
        });
    }

    private static double masterStatus(MeterRegistry registry) {
        Gauge gauge = registry.get(KubeloopMetrics.LEADER_ELECTION_MASTER_STATUS).tag("name", LEASE).gauge();
        return gauge.value();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> leadershipDetails(Health health) {
        return (Map<String, Object>) health.getDetails().get("leadership");
    }
}
