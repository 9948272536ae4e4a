package dev.kubeloop.autoconfigure.leader;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.autoconfigure.controller.KubeloopAutoConfiguration;
import dev.kubeloop.autoconfigure.scan.ScannedWidgetReconciler;
import dev.kubeloop.autoconfigure.scan.ScanningApplication;
import dev.kubeloop.leader.LeaderElection;
import dev.kubeloop.leader.LeaderElectionSettings;
import dev.kubeloop.leader.LeadershipLostHandler;
import dev.kubeloop.leader.OnLost;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.runtime.manager.WorkGate;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** When leader election is on, where its settings come from, and what the manager gets. */
class LeaderElectionAutoConfigurationTest {

    private final MockCluster cluster = MockCluster.withWidgetCrd();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(KubeloopAutoConfiguration.class,
                    LeaderElectionAutoConfiguration.class))
            .withBean(KubernetesClient.class, cluster::client)
            .withPropertyValues("spring.application.name=widget-operator");

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void offOutsideKubernetesSoEveryReplicaReconcilesAtOnce() {
        runner.withUserConfiguration(ScanningApplication.class).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(LeaderElection.class);
            ControllerManager manager = context.getBean(ControllerManager.class);
            assertThat(manager.leadership()).isEqualTo(LeadershipState.NOT_ELECTED);
            assertThat(manager.workersRunning()).isTrue();

            cluster.client().resource(Widget.named("ns", "a")).create();

            eventually().until(() -> context.getBean(ScannedWidgetReconciler.class).count("ns/a") == 1);
        });
    }

    @Test
    void onWhenSpringBootDetectsKubernetesWithTheDefaults() {
        runner.withPropertyValues("spring.main.cloud-platform=kubernetes").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(LeaderElection.class)
                    .hasSingleBean(LeadershipLostHandler.class);
            LeaderElectionSettings settings = context.getBean(LeaderElection.class).settings();
            assertThat(settings.leaseName()).isEqualTo("widget-operator-leader");
            assertThat(settings.leaseNamespace()).as("the client's, outside a pod").isEqualTo("test");
            assertThat(settings.identity()).matches(".+_[0-9a-f]{8}");
            assertThat(settings.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
            assertThat(settings.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
            assertThat(settings.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
            assertThat(settings.releaseOnShutdown()).isTrue();
            assertThat(settings.onLost()).isEqualTo(OnLost.EXIT);
            assertThat(context.getBean(ControllerManager.class).leadership().enabled()).isTrue();
        });
    }

    @Test
    void thePropertyTurnsItOffOnKubernetes() {
        runner.withPropertyValues("spring.main.cloud-platform=kubernetes", "kubeloop.leader-election.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LeaderElection.class));
    }

    @Test
    void thePropertyTurnsItOnElsewhere() {
        runner.withPropertyValues("kubeloop.leader-election.enabled=true")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(LeaderElection.class));
    }

    @Test
    void everySettingHasAProperty() {
        runner.withPropertyValues("kubeloop.leader-election.enabled=true",
                "kubeloop.leader-election.lease-name=custom-lease",
                "kubeloop.leader-election.lease-namespace=operators",
                "kubeloop.leader-election.identity=pod-a",
                "kubeloop.leader-election.lease-duration=30s",
                "kubeloop.leader-election.renew-deadline=20s",
                "kubeloop.leader-election.retry-period=4s",
                "kubeloop.leader-election.release-on-shutdown=false",
                "kubeloop.leader-election.on-lost=standby").run(context -> {
                    assertThat(context).hasNotFailed();
                    LeaderElectionSettings settings = context.getBean(LeaderElection.class).settings();
                    assertThat(settings).isEqualTo(LeaderElectionSettings.builder("operators", "custom-lease", "pod-a")
                            .leaseDuration(Duration.ofSeconds(30)).renewDeadline(Duration.ofSeconds(20))
                            .retryPeriod(Duration.ofSeconds(4)).releaseOnShutdown(false).onLost(OnLost.STANDBY)
                            .build());
                });
    }

    @Test
    void aLeaseNameDerivedFromTheApplicationNameIsMadeValid() {
        runner.withPropertyValues("kubeloop.leader-election.enabled=true", "spring.application.name=My Operator")
                .run(context -> assertThat(context.getBean(LeaderElection.class).settings().leaseName())
                        .isEqualTo("my-operator-leader"));
    }

    @Test
    void anApplicationWorkGateReplacesLeaderElection() {
        runner.withPropertyValues("kubeloop.leader-election.enabled=true")
                .withBean("customGate", WorkGate.class, WorkGate::alwaysOpen)
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LeaderElection.class)
                        .hasSingleBean(WorkGate.class));
    }
}
