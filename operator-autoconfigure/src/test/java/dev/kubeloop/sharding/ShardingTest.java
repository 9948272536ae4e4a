package dev.kubeloop.sharding;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.cache.ShardLayout;
import dev.kubeloop.testing.FencingRegister;
import dev.kubeloop.testing.Eventually;
import dev.kubeloop.testing.FencingRegister.Visit;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.SteadyUpdates;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sharding on the mock API server: managers gated by {@link ShardingGate} in one JVM, each with its
 * own client, split the Widgets, cache only their share and never reconcile one Widget at the same
 * time, through a join, a graceful leave and a replica cut off from its Lease. The real API
 * server's semantics (label selectors and their watch transitions, consistent lists, a SIGKILL) are
 * proven by the sample's {@code ShardingE2ETest}; this pins the protocol and the wiring in the
 * regular build.
 */
class ShardingTest {

    private static final int BUCKETS = 8;
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration RENEW = Duration.ofMillis(2000);
    private static final Duration RETRY = Duration.ofMillis(250);
    private static final ShardLayout LAYOUT = new ShardLayout(ShardedReplica.RING, BUCKETS);

    private final MockCluster cluster = MockCluster.withWidgetCrd();
    private final FencingRegister register = new FencingRegister();
    private final List<ShardedReplica> replicas = new ArrayList<>();

    @AfterEach
    void tearDown() {
        replicas.forEach(ShardedReplica::close);
        cluster.close();
    }

    @Test
    void replicasSplitTheWidgetsCacheOnlyTheirShareAndLabelWhatTheyOwn() {
        List<ShardedReplica> ring = List.of(replica("a"), replica("b"), replica("c"));
        awaitBalanced(ring);
        List<String> keys = createWidgets(60);

        eventually().until(() -> keys.stream().allMatch(this::reconciled));
        eventually().until(() -> ring.stream().allMatch(r -> r.cached() == widgetsIn(r.state().held())));

        assertThat(ring.stream().mapToInt(ShardedReplica::cached).sum()).isEqualTo(60);
        assertThat(register.overlaps()).isEmpty();
        for (Widget widget : widgets()) {
            String slot = widget.getMetadata().getLabels().get(LAYOUT.labelKey());
            assertThat(slot).as("slot label of " + widget.getMetadata().getName())
                    .isEqualTo(LAYOUT.slotLabel(widget.getMetadata().getUid()));
            ConfigMap data = cluster.client().configMaps().inNamespace("ns")
                    .withName(widget.getMetadata().getName() + "-data").get();
            assertThat(data.getMetadata().getLabels()).as("an owned object follows its owner's slot")
                    .containsEntry(LAYOUT.labelKey(), slot);
            ShardedReplica holder = holderOf(ring, widget);
            assertThat(reconcilersOf(widget)).as("who reconciled " + widget.getMetadata().getName())
                    .containsExactly(holder.name);
            assertThat(holder.manager.controller("widget").orElseThrow().cachedResourceVersion(
                    dev.kubeloop.api.ObjectKey.of(widget))).isPresent();
        }
        Lease lease = cluster.client().leases().inNamespace("ns").withName(ShardedReplica.RING + "-a").get();
        assertThat(lease.getMetadata().getAnnotations()).containsEntry(MemberLeases.HELD,
                BucketSets.format(ring.get(0).state().held()));
    }

    @Test
    void aJoiningReplicaTakesAQuarterWhileWidgetsChangeAndNoWidgetIsReconciledTwiceAtOnce() throws Exception {
        List<ShardedReplica> ring = new ArrayList<>(List.of(replica("a"), replica("b"), replica("c")));
        awaitBalanced(ring);
        List<String> keys = createWidgets(40);
        eventually().until(() -> keys.stream().allMatch(this::reconciled));
        Map<String, SortedSet<Integer>> before = heldBy(ring);

        SteadyUpdates updates = SteadyUpdates.start(cluster.client(), "ns", names(keys), 50, 150, 19);
        ring.add(replica("d"));
        awaitBalanced(ring);
        assertThat(updates.await(Eventually.DEADLINE)).as("the changes were all sent").isTrue();
        assertThat(updates.failures()).isEmpty();

        SortedSet<Integer> moved = new TreeSet<>(ring.get(3).state().held());
        assertThat(moved).as("the newcomer's share: a quarter of the buckets").hasSize(BUCKETS / 4);
        assertThat(before.values().stream().mapToInt(SortedSet::size).sum()).isEqualTo(BUCKETS);
        for (ShardedReplica old : ring.subList(0, 3)) {
            assertThat(before.get(old.name)).as("what " + old.name + " kept").containsAll(old.state().held());
        }
        eventually().until(() -> ring.stream().allMatch(r -> r.cached() == widgetsIn(r.state().held())));
        awaitLatestGenerationsReconciled();
        assertThat(register.overlaps()).isEmpty();
        assertThat(register.intersectingVisits()).isEmpty();
        assertThat(ring.get(3).state().handoffsIn().count()).isEqualTo(BUCKETS / 4);
    }

    @Test
    void aGracefulLeaveHandsEveryBucketOverBeforeItsLeaseCouldExpire() {
        List<ShardedReplica> ring = new ArrayList<>(List.of(replica("a"), replica("b"), replica("c")));
        awaitBalanced(ring);
        List<String> keys = createWidgets(30);
        eventually().until(() -> keys.stream().allMatch(this::reconciled));
        ShardedReplica leaving = ring.remove(2);

        long stopped = System.nanoTime();
        leaving.close();
        awaitBalanced(ring);
        long takenOver = System.nanoTime();

        assertThat(cluster.client().leases().inNamespace("ns").withName(ShardedReplica.RING + "-c").get())
                .as("a replica that left deletes its Lease").isNull();
        assertThat(Duration.ofNanos(takenOver - stopped)).as("no one waited for the Lease to expire")
                .isLessThan(LEASE);
        List<String> fresh = createWidgets(10);
        eventually().until(() -> fresh.stream().allMatch(this::reconciled));
        assertThat(register.visitsBy("c").stream().map(Visit::key)).doesNotContainAnyElementsOf(fresh);
        assertThat(register.overlaps()).isEmpty();
    }

    @Test
    void aReplicaCutOffFromItsLeaseStopsAtTheRenewDeadlineAndTheOthersWaitForItsExpiry() {
        List<ShardedReplica> ring = List.of(replica("a"), replica("b"), replica("c"));
        awaitBalanced(ring);
        List<String> keys = createWidgets(30);
        eventually().until(() -> keys.stream().allMatch(this::reconciled));
        ShardedReplica cut = ring.get(0);
        SortedSet<Integer> itsBuckets = new TreeSet<>(cut.state().held());

        cut.partition.cut();
        long partitioned = System.nanoTime();
        eventually().until(() -> !cut.state().inRing());
        long fenced = System.nanoTime();
        eventually().until(() -> heldBy(ring.subList(1, 3)).values().stream().mapToInt(SortedSet::size).sum()
                == BUCKETS);
        long takenOver = System.nanoTime();

        assertThat(Duration.ofNanos(fenced - partitioned)).as("it stops acting within its renew deadline")
                .isLessThanOrEqualTo(RENEW.plus(RETRY));
        assertThat(Duration.ofNanos(takenOver - partitioned)).as("its buckets move only once its Lease expired")
                .isGreaterThanOrEqualTo(LEASE.minus(RETRY));
        assertThat(cut.state().held()).isEmpty();
        assertThat(itsBuckets).isNotEmpty();
        cut.partition.heal();
        awaitBalanced(ring);
        List<String> fresh = createWidgets(20);
        eventually().until(() -> fresh.stream().allMatch(this::reconciled));
        assertThat(register.overlaps()).isEmpty();
        assertThat(register.intersectingVisits()).isEmpty();
    }

    private ShardedReplica replica(String name) {
        ShardedReplica replica = new ShardedReplica(cluster, name, register, BUCKETS, LEASE, RENEW, RETRY);
        replicas.add(replica);
        return replica.start();
    }

    /** Every replica holds its quota (as many buckets as the others, or one more) and nothing moves. */
    private void awaitBalanced(List<ShardedReplica> ring) {
        try {
            awaitBalancedOrTimeOut(ring);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the ring did not settle: " + ring, e);
        }
    }

    private void awaitBalancedOrTimeOut(List<ShardedReplica> ring) {
        eventually().until(() -> {
            int total = 0;
            for (ShardedReplica replica : ring) {
                int held = replica.state().held().size();
                if (!replica.state().inRing() || held < BUCKETS / ring.size() || held > BUCKETS / ring.size() + 1
                        || !replica.state().handoffs().isEmpty()) {
                    return false;
                }
                total += held;
            }
            return total == BUCKETS;
        });
    }

    private List<String> createWidgets(int count) {
        int start = widgets().size();
        return IntStream.range(start, start + count).mapToObj(i -> {
            cluster.createWithRandomUid(Widget.named("ns", "w" + i));
            return "ns/w" + i;
        }).toList();
    }

    private List<Widget> widgets() {
        return cluster.client().resources(Widget.class).inNamespace("ns").list().getItems();
    }

    private int widgetsIn(Set<Integer> buckets) {
        return (int) widgets().stream().filter(w -> buckets.contains(LAYOUT.bucketOf(w))).count();
    }

    private ShardedReplica holderOf(List<ShardedReplica> ring, Widget widget) {
        return ring.stream().filter(r -> r.state().held().contains(LAYOUT.bucketOf(widget))).findFirst()
                .orElseThrow();
    }

    private Set<String> reconcilersOf(Widget widget) {
        return register.visits().stream().filter(v -> v.key().equals("ns/" + widget.getMetadata().getName()))
                .map(Visit::replica).collect(Collectors.toSet());
    }

    private static Map<String, SortedSet<Integer>> heldBy(List<ShardedReplica> ring) {
        return ring.stream().collect(Collectors.toMap(r -> r.name, r -> new TreeSet<>(r.state().held())));
    }

    private static List<String> names(List<String> keys) {
        return keys.stream().map(key -> key.substring(key.indexOf('/') + 1)).toList();
    }

    private boolean reconciled(String key) {
        return register.visits().stream().anyMatch(visit -> visit.key().equals(key));
    }

    /** Every Widget's current generation was seen by a reconcile (after the last change). */
    private void awaitLatestGenerationsReconciled() {
        eventually().until(() -> widgets().stream().allMatch(widget -> register.visits().stream()
                .anyMatch(v -> v.key().equals("ns/" + widget.getMetadata().getName())
                        && v.generation() == widget.getMetadata().getGeneration())));
    }
}
