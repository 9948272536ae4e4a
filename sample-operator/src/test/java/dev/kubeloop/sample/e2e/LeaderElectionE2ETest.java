package dev.kubeloop.sample.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.LeadershipState.Role;
import dev.kubeloop.sample.SampleOperatorApplication;
import dev.kubeloop.sample.website.Website;
import dev.kubeloop.test.KubeloopTest;
import dev.kubeloop.test.KubeloopTestKit;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * Two instances of the sample operator elect a leader on one real Lease: the test's own
 * application context ({@code replica-a}, started first) and a second Spring application in the
 * same JVM ({@code replica-b}, its own client, same namespace, same Lease). Exactly one reconciles;
 * when the leader stops gracefully it releases the Lease and the standby takes over without
 * waiting for the Lease to expire.
 */
@KubeloopTest(crds = "classpath:META-INF/fabric8/websites.sample.kubeloop.dev-v1.yml",
        properties = {"sample.demo=off", "kubeloop.leader-election.enabled=true",
                "kubeloop.leader-election.identity=replica-a"})
class LeaderElectionE2ETest {

    static final Duration FAILOVER = Duration.ofSeconds(60);

    @Autowired
    KubernetesClient client;

    @Autowired
    KubeloopTestKit kit;

    @Autowired
    ControllerManager replicaA;

    @Autowired
    ConfigurableApplicationContext contextA;

    @Test
    void oneReplicaLeadsAndTheStandbyTakesOverAtOnceWhenTheLeaderStopsGracefully() {
        kit.await("replica-a leads", () -> replicaA.leadership().isLeader());
        String leaseName = replicaA.leadership().leaseName();
        assertThat(replicaA.leadership().leaseNamespace()).isEqualTo(kit.namespace());

        try (Replica b = Replica.start(kit, "replica-b")) {
            kit.await("replica-b stands by with synced caches", () -> b.manager.leadership().role() == Role.STANDBY
                    && b.manager.controller("website").orElseThrow().status().synced());
            assertThat(holder(leaseName)).isEqualTo("replica-a");

            Website first = kit.awaitReconciled(client.resource(Sites.website(kit.namespace(), "first", "v1")).create());
            assertThat(b.reconciles()).as("reconciles by the standby").isZero();
            kit.await("replica-b sees replica-a holding the Lease", () -> "replica-a".equals(b.manager.leadership().holder()));

            LeaseSpec beforeStop = lease(leaseName).getSpec();
            // a graceful stop of the leader, as on SIGTERM: drain, release the Lease, stop the informers (the
            // context itself stays open, because the test's namespace and client belong to it)
            contextA.getBean("kubeloopLifecycle", SmartLifecycle.class).stop();

            kit.await("replica-b leads", FAILOVER, () -> b.manager.leadership().isLeader()
                    && "replica-b".equals(holder(leaseName)));
            LeaseSpec afterFailover = lease(leaseName).getSpec();
            assertThat(afterFailover.getAcquireTime().toInstant())
                    .as("replica-b acquired the released Lease before it would have expired")
                    .isBefore(beforeStop.getRenewTime().toInstant()
                            .plusSeconds(beforeStop.getLeaseDurationSeconds()));
            assertThat(afterFailover.getLeaseTransitions()).isGreaterThan(beforeStop.getLeaseTransitions());
            assertThat(replicaA.leadership().isLeader()).as("replica-a still leading after its stop").isFalse();

            Website edited = client.resources(Website.class).withName(first.getMetadata().getName()).edit(site -> {
                site.getSpec().setPage("v2");
                return site;
            });
            Website second = client.resource(Sites.website(kit.namespace(), "second", "v1")).create();
            for (Website site : new Website[] {edited, second}) {
                kit.await(site.getMetadata().getName() + " is reconciled by replica-b", FAILOVER, () -> {
                    Website latest = client.resource(site).get();
                    return latest.getStatus() != null && latest.getMetadata().getGeneration()
                            .equals(latest.getStatus().getObservedGeneration());
                });
            }
            assertThat(b.reconciles()).as("reconciles by the new leader").isPositive();
            assertThat(Sites.index(client, kit.namespace())).containsKeys("first", "second");
        }
    }

    private Lease lease(String name) {
        return client.leases().inNamespace(kit.namespace()).withName(name).get();
    }

    private String holder(String leaseName) {
        Lease lease = lease(leaseName);
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }

    /** A second instance of the sample operator: its own Spring application and client, the test's namespace and Lease. */
    private static final class Replica implements AutoCloseable {

        final KubernetesClient client;
        final ConfigurableApplicationContext context;
        final ControllerManager manager;

        private Replica(KubernetesClient client, ConfigurableApplicationContext context) {
            this.client = client;
            this.context = context;
            this.manager = context.getBean(ControllerManager.class);
        }

        static Replica start(KubeloopTestKit kit, String identity) {
            KubernetesClient client = new KubernetesClientBuilder().withConfig(kit.client().getConfiguration()).build();
            try {
                ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleOperatorApplication.class)
                        .main(SampleOperatorApplication.class)
                        .web(WebApplicationType.NONE)
                        .bannerMode(Banner.Mode.OFF)
                        .registerShutdownHook(false)
                        .properties("sample.demo=off", "kubeloop.namespaces=" + kit.namespace(),
                                "kubeloop.leader-election.enabled=true", "kubeloop.leader-election.identity=" + identity,
                                "kubeloop.leader-election.lease-namespace=" + kit.namespace())
                        .initializers(c -> c.getBeanFactory().registerSingleton("kubernetesClient", client))
                        .run();
                return new Replica(client, context);
            } catch (RuntimeException e) {
                client.close();
                throw e;
            }
        }

        long reconciles() {
            return manager.controller("website").orElseThrow().status().outcomes().entrySet().stream()
                    .filter(e -> e.getKey() != ReconcileOutcome.GONE).mapToLong(e -> e.getValue()).sum();
        }

        @Override
        public void close() {
            try {
                context.close();
            } finally {
                client.close();
            }
        }
    }
}
