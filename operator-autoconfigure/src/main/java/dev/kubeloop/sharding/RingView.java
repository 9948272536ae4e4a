package dev.kubeloop.sharding;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The ring as one replica sees it: every member's Lease, and when this replica saw each Lease
 * change. A member is <em>live</em> while less than its lease duration has passed, on this
 * replica's monotonic clock, since its Lease last changed here (client-go's rule for leader
 * election: a clock skew between replicas does not matter, only their clocks' rates).
 *
 * <p>A Lease that is deleted while it still said it held buckets (someone deleted it, or the
 * member died between writes) keeps those buckets held for one more lease duration: its member may
 * still be acting until it notices. A member that leaves gracefully publishes an empty set first,
 * and its deletion frees nothing and waits for nothing.
 *
 * <p>State ownership: confined to the sharding thread of {@link ShardingGate} (and to the test
 * that drives it); not thread-safe.
 */
final class RingView {

    private final String self;
    private final Map<String, Observed> leases = new TreeMap<>();

    /** A Lease and when this replica saw its current version, or its deletion. */
    private record Observed(MemberLease lease, long observedNanos, boolean deleted) {

        boolean live(long now) {
            return lease.hasHolder() && now < expiry();
        }

        /** When this replica takes the member for gone, on its monotonic clock, unless the Lease changes first. */
        long expiry() {
            return observedNanos + Duration.ofSeconds(lease.leaseDurationSeconds()).toNanos();
        }
    }

    RingView(String self) {
        this.self = self;
    }

    /** A Lease was listed, added or updated; {@code now} on the monotonic clock. */
    void update(MemberLease lease, long now) {
        Observed before = leases.get(lease.name());
        if (before != null && !before.deleted() && before.lease().resourceVersion().equals(lease.resourceVersion())) {
            return; // a resync, or a re-list: not a renewal
        }
        leases.put(lease.name(), new Observed(lease, now, false));
    }

    /** A Lease was deleted. */
    void deleted(String name, long now) {
        Observed before = leases.remove(name);
        if (before != null && !before.deleted() && before.live(now) && !before.lease().held().isEmpty()) {
            leases.put(name, new Observed(before.lease(), now, true));
        }
    }

    /** The ring now: who is a member, who holds what. */
    Snapshot snapshot(long now) {
        return snapshot(leases, now);
    }

    /**
     * The ring as a consistent read of the Leases ({@code quorum}) shows it, judged with what this
     * replica observed: a Lease at a version seen here is as live as it was seen; one at a newer
     * version was renewed since, so it is live; one that the read no longer lists was deleted
     * (and still holds its buckets if it was live with buckets).
     */
    Snapshot verify(List<MemberLease> quorum, long now) {
        Map<String, Observed> merged = new TreeMap<>();
        Map<String, MemberLease> listed = new HashMap<>();
        quorum.forEach(lease -> listed.put(lease.name(), lease));
        for (MemberLease lease : quorum) {
            Observed seen = leases.get(lease.name());
            boolean sameVersion = seen != null && !seen.deleted()
                    && seen.lease().resourceVersion().equals(lease.resourceVersion());
            merged.put(lease.name(), sameVersion ? seen : new Observed(lease, now, false));
        }
        leases.forEach((name, seen) -> {
            if (!listed.containsKey(name) && seen.live(now) && !seen.lease().held().isEmpty()) {
                merged.put(name, new Observed(seen.lease(), seen.deleted() ? seen.observedNanos() : now, true));
            }
        });
        return snapshot(merged, now);
    }

    /**
     * A consistent list of the ring's Leases, {@code now}: records what changed, and takes a Lease
     * that the list no longer holds for deleted. Keeps the view right when the watch misses events
     * (a watch that broke and has not resumed yet).
     */
    void listed(List<MemberLease> all, long now) {
        Map<String, MemberLease> byName = new HashMap<>();
        all.forEach(lease -> byName.put(lease.name(), lease));
        for (String name : List.copyOf(leases.keySet())) {
            Observed seen = leases.get(name);
            if (!seen.deleted() && !byName.containsKey(name)) {
                deleted(name, now);
            }
        }
        all.forEach(lease -> update(lease, now));
    }

    /**
     * Other members' Leases that have not changed for {@code ageNanos}: their members are long
     * gone (SIGKILLed, their node lost) and nobody else would ever delete them.
     */
    List<MemberLease> stale(long now, long ageNanos) {
        List<MemberLease> stale = new ArrayList<>();
        leases.values().forEach(observed -> {
            if (!observed.deleted() && !self.equals(observed.lease().identity())
                    && now - observed.observedNanos() >= ageNanos) {
                stale.add(observed.lease());
            }
        });
        return stale;
    }

    /** Forgets Leases gone or expired for good, so that the view does not grow with every replica ever seen. */
    void prune(long now) {
        leases.values().removeIf(observed -> observed.deleted() && !observed.live(now));
    }

    private Snapshot snapshot(Map<String, Observed> view, long now) {
        Map<String, MemberLease> members = new LinkedHashMap<>();
        Map<Integer, String> holders = new HashMap<>();
        Map<String, Long> expiries = new HashMap<>();
        List<MemberLease> all = new ArrayList<>();
        for (Observed observed : view.values()) {
            MemberLease lease = observed.lease();
            if (!observed.deleted()) {
                all.add(lease);
            }
            if (!observed.live(now)) {
                continue;
            }
            if (!observed.deleted()) {
                members.put(lease.identity(), lease);
            }
            expiries.merge(lease.identity(), observed.expiry(), Math::max);
            for (int bucket : lease.held()) {
                // two live holders of one bucket act on it only for the instant of a claim, which its read-back
                // withdraws: another member is named before this replica, so that a claim sees its rival
                holders.merge(bucket, lease.identity(), (named, next) -> named.equals(self) ? next : named);
            }
        }
        return new Snapshot(self, members, holders, expiries, all);
    }

    /**
     * The ring at one moment.
     *
     * @param self this replica's identity
     * @param members the live members by identity (this replica's own Lease included when it is live)
     * @param holders the live holder of each held bucket, departed members' unexpired claims included
     * @param expiries when each live holder expires (monotonic nanos) unless its Lease changes first
     * @param leases every Lease listed, live or not, for display
     */
    record Snapshot(String self, Map<String, MemberLease> members, Map<Integer, String> holders,
            Map<String, Long> expiries, List<MemberLease> leases) {

        /** The earliest expiry among the holders of {@code buckets}; {@link Long#MAX_VALUE} if none. */
        long earliestExpiry(java.util.Collection<Integer> buckets) {
            long earliest = Long.MAX_VALUE;
            for (int bucket : buckets) {
                String holder = holders.get(bucket);
                if (holder != null && !holder.equals(self)) {
                    earliest = Math.min(earliest, expiries.getOrDefault(holder, Long.MAX_VALUE));
                }
            }
            return earliest;
        }

        /** Whether a member other than this replica holds {@code bucket}. */
        boolean heldByOther(int bucket) {
            String holder = holders.get(bucket);
            return holder != null && !holder.equals(self);
        }

        /** The live members whose bucket count differs from {@code buckets}. */
        Set<String> incompatible(int buckets) {
            Set<String> others = new java.util.TreeSet<>();
            members.values().forEach(lease -> {
                if (lease.buckets() != buckets) {
                    others.add(lease.identity());
                }
            });
            return others;
        }
    }
}
