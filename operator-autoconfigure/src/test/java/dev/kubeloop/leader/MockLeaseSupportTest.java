package dev.kubeloop.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.testing.MockCluster;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the leader election tests rely on from the mock API server, and why {@link ObservedLeaseLock}
 * exists: the mock enforces optimistic locking on Leases as a real API server does, so two
 * replicas cannot both win one Lease; and a merge patch that leaves a field out leaves it as it
 * was, so fabric8's null-holder release does not release.
 */
class MockLeaseSupportTest {

    private final MockCluster cluster = MockCluster.empty();
    private final KubernetesClient client = cluster.client();

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aSecondCreateAndAStaleUpdateOfALeaseConflict() {
        LeaseLock first = new LeaseLock("ns", "op-leader", "a");
        LeaseLock second = new LeaseLock("ns", "op-leader", "b");
        first.create(client, record("a"));
        assertThat(second.get(client).getHolderIdentity()).isEqualTo("a");

        assertThatThrownBy(() -> new LeaseLock("ns", "op-leader", "c").create(client, record("c")))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        first.update(client, record("a")); // a renewal: second's resourceVersion is now stale
        assertThatThrownBy(() -> second.update(client, record("b")))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("a");
    }

    @Test
    void fabric8sNullHolderReleaseKeepsTheHolderButTheObservedLockClearsIt() {
        LeaseLock plain = new LeaseLock("ns", "op-leader", "a");
        plain.create(client, record("a"));
        plain.update(client, record(null));
        assertThat(lease().getSpec().getHolderIdentity()).as("a merge patch leaves out nulls").isEqualTo("a");

        List<LeaderElectionRecord> written = new ArrayList<>();
        ObservedLeaseLock observed = new ObservedLeaseLock(new LeaseLock("ns", "op-leader", "a"), written::add);
        observed.get(client);
        observed.update(client, record(null));

        assertThat(lease().getSpec().getHolderIdentity()).isEmpty();
        assertThat(written).hasSize(1);
    }

    @Test
    void aFencedLockNoLongerWritesNorReads() {
        ObservedLeaseLock lock = new ObservedLeaseLock(new LeaseLock("ns", "op-leader", "a"), record -> { });
        lock.create(client, record("a"));
        lock.fence();

        assertThatThrownBy(() -> lock.update(client, record(null)))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("a");
        // fabric8 reads before it releases a cancelled term, and logged a failed read at ERROR with its trace;
        // a 409 it takes for "leadership already lost" and logs at DEBUG (LeaseLossLogTest)
        assertThatThrownBy(() -> lock.get(client))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }

    private Lease lease() {
        return client.leases().inNamespace("ns").withName("op-leader").get();
    }

    private static LeaderElectionRecord record(String holder) {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        return new LeaderElectionRecord(holder, Duration.ofSeconds(15), now, now, 0);
    }
}
