package dev.kubeloop.leader;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.queue.Ticker;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ReconcileFence;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.LeadershipState.Role;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.testing.FencedWidgetReconciler;
import dev.kubeloop.testing.FencingRegister.Visit;
import dev.kubeloop.testing.FencingRegister;
import dev.kubeloop.testing.LeasePartition;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Leader election without Spring: two managers gated by {@link LeaderElection} on one Lease. The
 * Spring-level scenarios are in {@code LeaderElectionFailoverTest}; this pins what only the plain
 * API shows: a leader whose renewal hangs stops at the renew deadline by its own timer (fabric8
 * alone would wait for the call), and {@link OnLost#STANDBY} stands by and leads again.
 */
class LeaderElectionTest {

    private static final Duration LEASE = Duration.ofSeconds(4);
    private static final Duration RENEW = Duration.ofMillis(2500);

    private final MockCluster cluster = MockCluster.withWidgetCrd();
    private final FencingRegister register = new FencingRegister();
    private final List<Replica> replicas = new ArrayList<>();

    @AfterEach
    void tearDown() {
        replicas.forEach(Replica::close);
        cluster.close();
    }

    @Test
    void aLeaderWhoseRenewalHangsStopsAtTheRenewDeadlineAndStandsByAgain() {
        Replica a = replica("a");
        eventually().until(() -> a.state().isLeader());
        Replica b = replica("b");
        cluster.client().resource(Widget.named("ns", "w")).create();
        eventually().until(() -> !register.visitsBy("a").isEmpty());

        a.partition.cut();

        eventually().until(() -> a.state().role() == Role.STANDBY);
        assertThat(a.manager.workersRunning()).isFalse();
        Lease lease = lease();
        assertThat(lease.getSpec().getHolderIdentity()).as("a could not release it").isEqualTo("a");
        Instant lastRenewal = lease.getSpec().getRenewTime().toInstant();
        assertThat(a.state().since()).as("a stopped acting before its Lease could expire")
                .isBetween(lastRenewal.plus(RENEW), lastRenewal.plus(LEASE));
        assertThat(a.lost).as("on-lost=standby does not exit").isEmpty();

        eventually().until(() -> b.state().isLeader());
        assertThat(b.state().since()).isAfterOrEqualTo(lastRenewal.plus(LEASE));
        a.partition.heal();
        eventually().until(() -> "b".equals(a.state().holder()));
        assertThat(a.state().role()).isEqualTo(Role.STANDBY);

        b.close();

        eventually().until(() -> a.state().isLeader());
        cluster.client().resource(Widget.named("ns", "fresh")).create();
        eventually().until(() -> register.visitsBy("a").stream().map(Visit::key).anyMatch("ns/fresh"::equals));
        assertThat(register.overlaps()).isEmpty();
    }

    @Test
    void aLeadersWritesStopAtTheRenewDeadlineOnTheMonotonicClockAndNeverOutliveItsLeadership() {
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        Replica a = replica("a", nanos::get);
        eventually().until(() -> a.state().isLeader());
        ReconcileFence.Permit permit = a.election.fence().enter(Widget.named("ns", "w"));
        assertThat(permit.holds()).isTrue();

        // a pause, as the paused replica's clock sees it: no renewal since, and no timer has run
        a.partition.cut();
        nanos.addAndGet(RENEW.toNanos());
        assertThat(permit.holds()).as("past the renew deadline on the monotonic clock").isFalse();

        eventually().until(() -> a.state().role() == Role.STANDBY);
        a.partition.heal();
        eventually().until(() -> a.state().isLeader());
        assertThat(permit.holds()).as("a reconcile admitted in an earlier leadership never writes again").isFalse();
        assertThat(a.election.fence().enter(Widget.named("ns", "w")).holds()).isTrue();
    }

    @Test
    void closingTheLeaderReleasesTheLeaseAndEndsEveryLeaderThread() {
        Replica a = replica("a");
        eventually().until(() -> a.state().isLeader());

        a.close();

        assertThat(lease().getSpec().getHolderIdentity()).isEmpty();
        assertThat(a.state().role()).isEqualTo(Role.STANDBY);
        eventually().until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(thread -> thread.getName().startsWith("kubeloop-leader") && thread.isAlive()));
    }

    private Replica replica(String name) {
        return replica(name, Ticker.system());
    }

    private Replica replica(String name, Ticker ticker) {
        Replica replica = new Replica(cluster, name, register, ticker);
        replicas.add(replica);
        replica.manager.start();
        return replica;
    }

    private Lease lease() {
        return cluster.client().leases().inNamespace("ns").withName("widget-operator-leader").get();
    }

    /** One replica: its own client (with a partition), a manager and its leader election. */
    private static final class Replica implements AutoCloseable {
        final LeasePartition partition = new LeasePartition();
        final List<LeadershipState> lost = new CopyOnWriteArrayList<>();
        final KubernetesClient client;
        final LeaderElection election;
        final ControllerManager manager;

        Replica(MockCluster cluster, String name, FencingRegister register, Ticker ticker) {
            Consumer<KubernetesClientBuilder> withPartition = builder -> builder.withHttpClientBuilderConsumer(
                    http -> http.addOrReplaceInterceptor("partition", partition));
            client = cluster.newClient(withPartition);
            election = new LeaderElection(client, LeaderElectionSettings.builder("ns", "widget-operator-leader", name)
                    .leaseDuration(LEASE).renewDeadline(RENEW).retryPeriod(Duration.ofMillis(250))
                    .onLost(OnLost.STANDBY).build(), lost::add, ticker);
            manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5)).workGate(election)
                    .build();
            manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                    new FencedWidgetReconciler(name, register, Duration.ofMillis(10)));
        }

        LeadershipState state() {
            return election.state();
        }

        @Override
        public void close() {
            partition.heal();
            manager.stop();
            client.close();
        }
    }
}
