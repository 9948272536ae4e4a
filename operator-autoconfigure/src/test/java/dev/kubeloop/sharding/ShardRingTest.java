package dev.kubeloop.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.queue.Ticker;
import dev.kubeloop.sharding.ShardRing.Phase;
import dev.kubeloop.sharding.ShardRing.Plan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The handoff protocol of {@link ShardRing} and the ring as {@link RingView} sees it, on a fake
 * clock and without I/O: this class plays the gate (writes succeed when the test says so) and
 * the other members (their Leases as the watch would deliver them). Each test is one rule.
 */
class ShardRingTest {

    private static final int BUCKETS = 8;
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(2);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Ticker ticker = nanos::get;
    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private final ShardRing ring = new ShardRing("a", BUCKETS, RENEW, RETRY, ticker, clock);
    private final RingView view = new RingView("a");
    private int versions;

    @Test
    void aNewcomerWritesItsLeaseBeforeItClaimsAnything() {
        Plan first = ring.plan(view.snapshot(now()));

        assertThat(first.write()).isTrue();
        assertThat(first.claim()).isEmpty();
        assertThat(first.publish()).isEmpty();
        assertThat(ring.inRing()).isFalse();
    }

    @Test
    void aLoneMemberClaimsEveryBucketListsThemAndOpensThemOnceSynced() {
        join();
        Plan plan = ring.plan(view.snapshot(now()));
        assertThat(plan.claim()).containsExactlyElementsOf(all());
        assertThat(plan.publish()).as("a claim is written before it is acted on").containsExactlyElementsOf(all());
        ring.written(plan.publish(), now());

        ShardRing.Verification verification = ring.verify(plan.claim(), view.verify(List.of(self(plan.publish())),
                now()));
        assertThat(verification.confirmed()).containsExactlyElementsOf(all());
        assertThat(ring.inPhase(Phase.SYNCING)).containsExactlyElementsOf(all());

        advance(Duration.ofMillis(300));
        for (int bucket : all()) {
            assertThat(ring.synced(bucket, ring.claimOf(bucket))).isTrue();
        }
        assertThat(ring.inPhase(Phase.ACTIVE)).containsExactlyElementsOf(all());
        assertThat(ring.handoffsIn().count()).isEqualTo(BUCKETS);
        assertThat(ring.handoffsIn().longest()).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void aBucketHeldByALiveMemberWaitsUntilItsLeaseExpires() {
        other("b", set(0, 1, 2, 3, 4, 5, 6, 7));
        join();
        Plan plan = ring.plan(view.snapshot(now()));
        SortedSet<Integer> mine = plan.target();
        assertThat(mine).hasSize(BUCKETS / 2);
        assertThat(plan.claim()).as("nothing is claimed while its holder lives").isEmpty();
        assertThat(ring.inPhase(Phase.WAITING)).isEqualTo(mine);

        // b dies: its Lease stops changing; a keeps renewing its own
        advance(LEASE.minus(Duration.ofMillis(1)));
        renew();
        assertThat(ring.plan(view.snapshot(now())).claim()).as("one nanosecond short of the lease duration")
                .isEmpty();
        advance(Duration.ofMillis(1));
        Plan afterExpiry = ring.plan(view.snapshot(now()));
        assertThat(afterExpiry.target()).as("b is gone: every bucket is a's").containsExactlyElementsOf(all());
        assertThat(afterExpiry.claim()).containsExactlyElementsOf(all());
    }

    @Test
    void aBucketReleasedByItsHolderIsClaimedAtOnce() {
        other("b", set(0, 1, 2, 3, 4, 5, 6, 7));
        join();
        SortedSet<Integer> mine = ring.plan(view.snapshot(now())).target();
        advance(Duration.ofMillis(500));
        SortedSet<Integer> kept = new TreeSet<>(all());
        kept.removeAll(mine);
        other("b", kept); // b drained them and wrote its Lease without them

        Plan plan = ring.plan(view.snapshot(now()));
        assertThat(plan.claim()).isEqualTo(mine);
    }

    @Test
    void aClaimThatMeetsARivalClaimInTheReadBackIsWithdrawn() {
        join();
        Plan plan = ring.plan(view.snapshot(now()));
        ring.written(plan.publish(), now());
        // b claimed the same buckets at the same time; a's read-back sees b's write
        MemberLease rival = new MemberLease("ring-b", "b", set(0, 1), BUCKETS, clock.instant(), 15, "v-b");

        ShardRing.Verification verification = ring.verify(plan.claim(),
                view.verify(List.of(self(plan.publish()), rival), now()));

        assertThat(verification.withdrawn()).containsExactly(0, 1);
        assertThat(verification.confirmed()).doesNotContain(0, 1).hasSize(BUCKETS - 2);
        assertThat(ring.publishable()).as("the next write drops the withdrawn claims").doesNotContain(0, 1);
    }

    @Test
    void anActiveBucketTheAssignmentMovesAwayDrainsBeforeItLeavesTheLease() {
        holdEverything();
        other("b", set());

        Plan plan = ring.plan(view.snapshot(now()));
        SortedSet<Integer> giving = plan.release();
        assertThat(giving).hasSize(BUCKETS / 2);
        assertThat(plan.publish()).as("a bucket draining is still published: the next holder waits")
                .containsAll(giving);
        assertThat(ring.inPhase(Phase.DRAINING)).isEqualTo(giving);

        int first = giving.first();
        advance(Duration.ofSeconds(3));
        assertThat(ring.drained(first)).isTrue();
        assertThat(ring.publishable()).doesNotContain(first).containsAll(ring.inPhase(Phase.DRAINING));
        assertThat(ring.handoffsOut().count()).isEqualTo(1);
        assertThat(ring.handoffsOut().total()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aReplicaThatMissesItsRenewDeadlineIsOutOfTheRingAndHoldsNothing() {
        holdEverything();
        advance(RENEW.minus(Duration.ofMillis(1)));
        assertThat(ring.inRing()).isTrue();
        advance(Duration.ofMillis(1));
        assertThat(ring.inRing()).as("renew deadline passed without a successful write").isFalse();

        SortedSet<Integer> running = ring.fence();

        assertThat(running).containsExactlyElementsOf(all());
        assertThat(ring.publishable()).isEmpty();
        Plan plan = ring.plan(view.snapshot(now()));
        assertThat(plan.claim()).as("out of the ring: only rejoin").isEmpty();
        assertThat(plan.write()).isTrue();
    }

    @Test
    void aWriteThatTookLongerThanTheRenewDeadlineRenewsNothing() {
        join();
        long start = now();
        advance(RENEW);
        ring.written(set(), start);
        assertThat(ring.inRing()).isFalse();
    }

    @Test
    void theOthersTakeTheBucketsOfAFencedReplicaOnlyAfterTheLeaseDurationWhichOutlastsItsRenewDeadline() {
        // the same rule seen from b: a's Lease stops changing at t0; a fences itself at t0 + renew deadline,
        // b may claim at t0 + lease duration
        RingView fromB = new RingView("b");
        fromB.update(new MemberLease("ring-a", "a", all(), BUCKETS, clock.instant(), 15, "v1"), now());
        fromB.update(new MemberLease("ring-b", "b", set(), BUCKETS, clock.instant(), 15, "v2"), now());
        advance(RENEW);
        assertThat(fromB.snapshot(now()).heldByOther(0)).as("a has just fenced itself; b still waits").isTrue();
        fromB.update(new MemberLease("ring-b", "b", set(), BUCKETS, clock.instant(), 15, "v3"), now()); // b renews
        advance(LEASE.minus(RENEW));
        assertThat(fromB.snapshot(now()).heldByOther(0)).isFalse();
        assertThat(fromB.snapshot(now()).members()).containsOnlyKeys("b");
    }

    @Test
    void aLeaseDeletedWhileItHeldBucketsKeepsThemHeldForALeaseDurationButAGracefulLeaveFreesThemAtOnce() {
        view.update(new MemberLease("ring-b", "b", set(0, 1), BUCKETS, clock.instant(), 15, "v1"), now());
        view.deleted("ring-b", now());
        assertThat(view.snapshot(now()).heldByOther(0)).as("b may still be acting").isTrue();
        advance(LEASE);
        assertThat(view.snapshot(now()).heldByOther(0)).isFalse();

        view.update(new MemberLease("ring-c", "c", set(), BUCKETS, clock.instant(), 15, "v2"), now());
        view.deleted("ring-c", now());
        assertThat(view.snapshot(now()).members()).doesNotContainKey("c");
    }

    @Test
    void aLeaseUnchangedForLongIsStaleButNeverOnesOwnNorOneThatRenews() {
        view.update(self(set()), now());
        other("b", set(1));
        other("dead", set(2));
        Duration staleAfter = LEASE.multipliedBy(4);
        advance(staleAfter.minus(Duration.ofMillis(1)));
        other("b", set(1));
        assertThat(view.stale(now(), staleAfter.toNanos())).isEmpty();
        advance(Duration.ofMillis(1));
        assertThat(view.stale(now(), staleAfter.toNanos())).extracting(MemberLease::identity).containsExactly("dead");
    }

    @Test
    void aLeavingReplicaGivesEverythingAwayAndClaimsNothing() {
        holdEverything();
        ring.leave();
        Plan plan = ring.plan(view.snapshot(now()));
        assertThat(plan.target()).isEmpty();
        assertThat(plan.release()).containsExactlyElementsOf(all());
        assertThat(plan.claim()).isEmpty();
    }

    @Test
    void aLateSyncOfAClaimGivenUpMeanwhileOpensNothing() {
        join();
        Plan plan = ring.plan(view.snapshot(now()));
        ring.written(plan.publish(), now());
        ring.verify(plan.claim(), view.verify(List.of(self(plan.publish())), now()));
        long claim = ring.claimOf(3);
        ring.syncFailed(3, claim);
        assertThat(ring.synced(3, claim)).isFalse();
        assertThat(ring.phase(3)).isNull();
    }

    // ---- the test plays the gate ----

    /** Writes a's first Lease: a is in the ring. */
    private void join() {
        Plan plan = ring.plan(view.snapshot(now()));
        ring.written(plan.publish(), now());
        view.update(self(plan.publish()), now());
        assertThat(ring.inRing()).isTrue();
    }

    private void renew() {
        ring.written(ring.publishable(), now());
        view.update(self(ring.publishable()), now());
    }

    /** a alone, every bucket ACTIVE. */
    private void holdEverything() {
        join();
        Plan plan = ring.plan(view.snapshot(now()));
        ring.written(plan.publish(), now());
        ring.verify(plan.claim(), view.verify(List.of(self(plan.publish())), now()));
        for (int bucket : plan.claim()) {
            ring.synced(bucket, ring.claimOf(bucket));
        }
        view.update(self(plan.publish()), now());
        assertThat(ring.inPhase(Phase.ACTIVE)).containsExactlyElementsOf(all());
    }

    private MemberLease self(SortedSet<Integer> held) {
        return new MemberLease("ring-a", "a", held, BUCKETS, clock.instant(), 15, "va" + ++versions);
    }

    private void other(String identity, SortedSet<Integer> held) {
        view.update(new MemberLease("ring-" + identity, identity, held, BUCKETS, clock.instant(), 15,
                "v" + identity + ++versions), now());
    }

    private long now() {
        return ticker.read();
    }

    private void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }

    private static SortedSet<Integer> all() {
        return set(IntStream.range(0, BUCKETS).toArray());
    }

    private static SortedSet<Integer> set(int... buckets) {
        SortedSet<Integer> set = new TreeSet<>();
        for (int bucket : buckets) {
            set.add(bucket);
        }
        return set;
    }
}
