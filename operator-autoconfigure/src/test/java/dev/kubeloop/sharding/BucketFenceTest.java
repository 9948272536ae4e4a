package dev.kubeloop.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.cache.ShardLayout;
import dev.kubeloop.runtime.controller.ReconcileFence.Permit;
import dev.kubeloop.testing.Widget;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * When a sharded reconcile's writes may leave ({@link Permit#holds()}), on a hand-driven monotonic
 * clock: only before the renew deadline of the last renewal, whatever the fence timer did or did
 * not do, and never after the replica was fenced, even once it renewed again.
 */
class BucketFenceTest {

    private static final ShardLayout LAYOUT = new ShardLayout("ring", 4);
    private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final BucketFence fence = new BucketFence(LAYOUT, nanos::get);
    private final Widget primary = Widget.named("ns", "w");
    private final int bucket;

    BucketFenceTest() {
        primary.getMetadata().setUid("0b5e7a3c-1d2f-4e6a-9b8c-7d6e5f4a3b2c");
        bucket = LAYOUT.bucketOf(primary);
        fence.open(bucket, fence.epoch());
    }

    @Test
    void noWriteLeavesBeforeTheFirstRenewal() {
        assertThat(fence.enter(primary).holds()).isFalse();
    }

    @Test
    void writesLeaveUntilTheRenewDeadlineOnTheMonotonicClockAlone() {
        renewNow();
        Permit permit = fence.enter(primary);
        nanos.addAndGet(RENEW_DEADLINE.toNanos() - 1);
        assertThat(permit.holds()).isTrue();
        nanos.addAndGet(1); // the pause ends here: no timer has run, the clock alone says no
        assertThat(permit.holds()).isFalse();
        renewNow();
        assertThat(permit.holds()).as("renewed again, same epoch").isTrue();
    }

    @Test
    void aReconcileAdmittedBeforeTheReplicaWasFencedNeverWritesAgainEvenAfterItRejoined() {
        renewNow();
        Permit before = fence.enter(primary);
        fence.closeAll();
        renewNow(); // rejoined the ring
        fence.open(bucket, fence.epoch());
        assertThat(before.holds()).isFalse();
        assertThat(fence.enter(primary).holds()).isTrue();
    }

    @Test
    void aBucketBeingHandedOverKeepsItsPermitsValidUntilTheyAreReturned() {
        renewNow();
        Permit permit = fence.enter(primary);
        fence.close(bucket);
        assertThat(permit.holds()).as("the handoff waits for it").isTrue();
    }

    private void renewNow() {
        fence.renewed(nanos.get() + RENEW_DEADLINE.toNanos());
    }
}
