package dev.kubeloop.autoconfigure.leader;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.manager.LeadershipState.Role;
import dev.kubeloop.testing.FencingRegister;
import dev.kubeloop.testing.FencingRegister.Visit;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;

/**
 * Two (or more) Spring Boot applications against one mock API server and one Lease, as replicas
 * of one operator: one reconciles, the other stands by ready, and the Lease passes between them on
 * a graceful stop (at once), on a leader that stops renewing (only once the Lease has expired), and
 * never so that both reconcile one object at the same time.
 */
class LeaderElectionFailoverTest {

    /** Short timings to keep the suite fast; the renew deadline leaves 0.5 s before the Lease expires. */
    private static final String[] FAST = {"kubeloop.leader-election.lease-duration=2s",
        "kubeloop.leader-election.renew-deadline=1500ms", "kubeloop.leader-election.retry-period=200ms"};
    private static final Duration FAST_LEASE = Duration.ofSeconds(2);
    /**
     * For the long scenario under load: a loaded test machine must not make a healthy leader miss
     * its renew deadline (that would be a failover the test did not ask for).
     */
    private static final String[] TOLERANT = {"kubeloop.leader-election.lease-duration=4s",
        "kubeloop.leader-election.renew-deadline=3s", "kubeloop.leader-election.retry-period=500ms",
        // a worker per key: a new leader starts on every key at once
        "kubeloop.reconcilers.widget.workers=4"};

    private final MockCluster cluster = MockCluster.withWidgetCrd();
    private final FencingRegister register = new FencingRegister();
    private final List<Replica> replicas = new ArrayList<>();
    private ScheduledExecutorService updater;

    @AfterEach
    void tearDown() {
        if (updater != null) {
            updater.shutdownNow();
        }
        replicas.forEach(Replica::close);
        cluster.close();
    }

    @Test
    void exactlyOneReplicaReconcilesWhileTheOtherIsReadyAndStandingBy() {
        Replica a = replica("a", Duration.ZERO);
        eventually().until(() -> a.leadership().isLeader());
        Replica b = replica("b", Duration.ZERO);

        for (String name : List.of("w1", "w2", "w3")) {
            cluster.client().resource(Widget.named("ns", name)).create();
        }

        eventually().until(() -> reconciledKeys("a").size() == 3);
        assertThat(a.manager().workersRunning()).isTrue();
        assertThat(b.leadership().role()).isEqualTo(Role.STANDBY);
        assertThat(b.leadership().holder()).as("the standby knows who leads").isEqualTo("a");
        assertThat(b.manager().hasSynced()).as("a warm standby: caches synced").isTrue();
        assertThat(b.availability().getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        assertThat(b.availability().getLivenessState()).isEqualTo(LivenessState.CORRECT);
        assertThat(b.manager().workersRunning()).isFalse();
        eventually().until(() -> b.manager().controller("widget").orElseThrow().queueStats().depth() == 3);
        assertThat(register.visitsBy("b")).isEmpty();
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("a");
    }

    @Test
    void aGracefulStopOfTheLeaderHandsTheLeaseToTheStandbyAtOnce() {
        // default timings: 15 s lease; the stop releases it, so the standby need not wait for it to expire
        Replica a = replica("a", Duration.ZERO);
        eventually().until(() -> a.leadership().isLeader());
        Replica b = replica("b", Duration.ZERO);
        assertThat(b.leadership().role()).isEqualTo(Role.STANDBY);

        a.stop();
        assertThat(lease().getSpec().getHolderIdentity()).as("released by the stop, or already taken by b")
                .isIn("", null, "b");
        cluster.client().resource(Widget.named("ns", "fresh")).create();

        eventually().until(() -> reconciledKeys("b").contains("ns/fresh"));
        assertThat(b.leadership().isLeader()).isTrue();
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("b");
        assertThat(reconciledKeys("a")).doesNotContain("ns/fresh");
        assertThat(a.exitCodes).as("a graceful stop is not a lost Lease").isEmpty();
        assertThat(register.overlaps()).isEmpty();
    }

    @Test
    @SuppressWarnings("try") // the watch is held open for the whole test
    void aLeaderThatStopsRenewingIsReplacedOnlyAfterTheLeaseExpires() throws Exception {
        List<LeaseSpec> seen = new CopyOnWriteArrayList<>();
        try (Watch ignored = watchLease(seen)) {
            Replica a = replica("a", Duration.ZERO, FAST);
            eventually().until(() -> a.leadership().isLeader());
            Replica b = replica("b", Duration.ZERO, FAST);
            cluster.client().resource(Widget.named("ns", "w")).create();
            eventually().until(() -> reconciledKeys("a").contains("ns/w"));

            a.partition.cut(); // its Lease calls hang from now on: it can neither renew nor release

            eventually().until(() -> a.exitCodes.equals(List.of(1)));
            assertThat(a.availability().getLivenessState()).isEqualTo(LivenessState.BROKEN);
            assertThat(a.isRunning()).as("the context was closed before exiting").isFalse();
            assertThat(a.partition.hungCalls()).isPositive();
            eventually().until(() -> b.leadership().isLeader());

            Instant lastRenewalByA = seen.stream().filter(spec -> "a".equals(spec.getHolderIdentity()))
                    .map(spec -> spec.getRenewTime().toInstant()).max(Comparator.naturalOrder()).orElseThrow();
            assertThat(b.leadership().since()).as("b took over only once a's Lease had expired")
                    .isAfterOrEqualTo(lastRenewalByA.plus(FAST_LEASE));
            cluster.client().resource(Widget.named("ns", "fresh")).create();
            eventually().until(() -> reconciledKeys("b").contains("ns/fresh"));
            assertThat(register.overlaps()).isEmpty();
        }
    }

    @Test
    void noObjectIsEverReconciledByTwoReplicasAtOnceAcrossFailovers() {
        List<String> keys = List.of("k1", "k2", "k3", "k4");
        keys.forEach(name -> cluster.client().resource(Widget.named("ns", name)).create());
        startUpdating(keys);
        // longer than a hand-over takes (about 50 ms), so that releasing the Lease before the
        // reconciles in flight have drained would show up here as an overlap
        Duration work = Duration.ofMillis(150);
        AtomicInteger next = new AtomicInteger();
        Replica first = replica("r" + next.incrementAndGet(), work, TOLERANT);
        eventually().until(() -> first.leadership().isLeader());
        Replica leader = first;
        Replica standby = replica("r" + next.incrementAndGet(), work, TOLERANT);

        for (int failover = 1; failover <= 4; failover++) {
            awaitProgressBy(leader.name);
            if (failover == 3) {
                leader.partition.cut(); // this one dies without releasing
            } else {
                leader.stop();
            }
            Replica promoted = standby;
            eventually().until(() -> promoted.leadership().isLeader());
            awaitProgressBy(promoted.name);
            leader = promoted;
            standby = replica("r" + next.incrementAndGet(), work, TOLERANT);
        }

        assertThat(register.overlaps()).isEmpty();
        assertThat(register.intersectingVisits()).isEmpty();
        // the cut-off replica exits once its renew deadline passes, which may be after its successor leads
        Replica cutOff = replicas.get(2);
        eventually().until(() -> !cutOff.exitCodes.isEmpty());
        assertThat(cutOff.exitCodes).as("the replica cut off exited").containsExactly(1);
        assertThat(register.visits().stream().map(Visit::replica).distinct()).hasSize(5);
    }

    private Replica replica(String name, Duration work, String... properties) {
        Replica replica = Replica.start(cluster, name, register, work, properties);
        replicas.add(replica);
        return replica;
    }

    private List<String> reconciledKeys(String replica) {
        return register.visitsBy(replica).stream().map(Visit::key).distinct().toList();
    }

    private Lease lease() {
        return cluster.client().leases().inNamespace(Replica.LEASE_NAMESPACE).withName(Replica.LEASE_NAME).get();
    }

    /** A steady stream of spec updates to {@code keys}, one every 10 ms. */
    private void startUpdating(List<String> keys) {
        updater = Executors.newSingleThreadScheduledExecutor();
        updater.scheduleWithFixedDelay(() -> {
            String name = keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
            try {
                cluster.client().resources(Widget.class).inNamespace("ns").withName(name).edit(widget -> {
                    widget.getSpec().setSize(widget.getSpec().getSize() + 1);
                    return widget;
                });
            } catch (RuntimeException e) {
                // the mock closing at the end of the test
            }
        }, 0, 10, TimeUnit.MILLISECONDS);
    }

    /** Waits until {@code replica} has reconciled updates made from now on. */
    private void awaitProgressBy(String replica) {
        long from = System.nanoTime();
        eventually().until(() -> register.visitsBy(replica).stream().filter(visit -> visit.startNanos() > from)
                .count() >= 3);
    }

    private Watch watchLease(List<LeaseSpec> seen) {
        return cluster.client().leases().inNamespace(Replica.LEASE_NAMESPACE).withName(Replica.LEASE_NAME)
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Lease lease) {
                        if (lease.getSpec() != null) {
                            seen.add(lease.getSpec());
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                });
    }
}
