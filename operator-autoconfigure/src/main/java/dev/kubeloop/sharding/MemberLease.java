package dev.kubeloop.sharding;

import java.time.Instant;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One member's Lease as the ring reads it: the member's identity (the Lease's holder; empty once it
 * left), the buckets it says it holds, the bucket count it splits by, its last renewal and lease
 * duration, and the Lease's resourceVersion, which tells a renewal from the record seen before.
 * Immutable.
 *
 * @param name the Lease's name
 * @param identity the holder identity; empty when the member left
 * @param held the buckets it holds, as it last published them
 * @param buckets the bucket count it splits the objects by (every member must agree)
 * @param renewTime its last renewal, as it wrote it (for display: liveness is judged by when a new
 *     resourceVersion was seen, on the observer's clock, as client-go does)
 * @param leaseDurationSeconds how long after its last renewal others may consider it gone
 * @param resourceVersion the Lease's resourceVersion
 */
record MemberLease(String name, String identity, SortedSet<Integer> held, int buckets, Instant renewTime,
        int leaseDurationSeconds, String resourceVersion) {

    MemberLease {
        held = Collections.unmodifiableSortedSet(new TreeSet<>(held));
    }

    /** Whether a member holds the Lease (an empty holder is a member that left). */
    boolean hasHolder() {
        return identity != null && !identity.isEmpty();
    }
}
