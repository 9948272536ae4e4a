package dev.kubeloop.sharding;

import dev.kubeloop.queue.Ticker;
import dev.kubeloop.runtime.manager.ShardingState;
import dev.kubeloop.runtime.manager.ShardingState.Direction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The handoff protocol of one replica, without I/O: which buckets it holds and in which phase, what
 * its Lease must say, and what to do next. {@link ShardingGate} feeds it the ring
 * ({@link RingView}) and the outcome of its requests, and carries out its plans; tests drive it
 * with a fake clock.
 *
 * <p><b>A bucket's life here.</b> {@code WAITING}: the assignment gives it to this replica, but a
 * live member still holds it. {@code CLAIMING}: no live member holds it; it goes into this
 * replica's Lease, which is written, then every Lease is read back consistently: if another live
 * member claims it too, this replica withdraws (two claimants cannot both miss each other: of two
 * write-then-read sequences, the later read sees the earlier write). {@code SYNCING}: claimed
 * alone; its informers list it from etcd. {@code ACTIVE}: synced; the fence admits its primaries
 * and they are all queued once. {@code DRAINING}: the assignment gives it away (or the replica
 * shuts down); the fence admits nothing more of it, and once its reconciles in flight have ended
 * its informers stop and the next write drops it from the Lease, which is what the next holder
 * waits for.
 *
 * <p><b>Fencing.</b> Every write of the Lease is a renewal; a replica is in the ring while its
 * last successful write started less than the renew deadline ago. When that deadline passes,
 * {@link #fence} drops every bucket at once (the gate closes the fence and interrupts what runs):
 * others may take them once the lease duration, longer than the renew deadline, has passed since
 * they last saw the Lease change, so the fenced replica has stopped before anyone starts.
 *
 * <p>State ownership: confined to the sharding thread (one thread calls every method); not
 * thread-safe. The gate publishes {@link #state} snapshots to other threads.
 */
final class ShardRing {

    /** Where a bucket stands on this replica. */
    enum Phase {
        WAITING, CLAIMING, SYNCING, ACTIVE, DRAINING;

        /** Whether this replica's Lease must name the bucket: it acts on it, or may. */
        boolean published() {
            return this != WAITING;
        }
    }

    /**
     * A bucket's phase here, since when (both clocks), when its handoff began, and which claim of it
     * this is (0 before it is claimed), so that a late answer to an earlier claim is not taken
     * for the current one.
     */
    private record Local(Phase phase, long sinceNanos, Instant since, long handoffStartNanos, long claim) {
    }

    /**
     * What one round decided.
     *
     * @param release buckets to close now and drain (they were acting or claimed)
     * @param drop buckets claimed but never opened, to forget at once (their informers stop)
     * @param claim buckets to claim with this round's write, then verify
     * @param publish what the Lease must say after this round
     * @param write whether to write the Lease now (a change, a renewal due, or joining)
     * @param target what the assignment gives this replica
     */
    record Plan(SortedSet<Integer> release, SortedSet<Integer> drop, SortedSet<Integer> claim,
            SortedSet<Integer> publish, boolean write, SortedSet<Integer> target) {
    }

    /**
     * What the read-back of a claim showed.
     *
     * @param confirmed claimed alone: start listing them
     * @param withdrawn another live member claims them too: dropped, to be written away
     */
    record Verification(SortedSet<Integer> confirmed, SortedSet<Integer> withdrawn) {
    }

    private static final long NEVER = Long.MIN_VALUE;

    private final String self;
    private final int buckets;
    private final Duration renewDeadline;
    private final Duration retryPeriod;
    private final Ticker ticker;
    private final Clock clock;
    private final Map<Integer, Local> local = new TreeMap<>();
    private SortedSet<Integer> published = Collections.emptySortedSet();
    private SortedSet<Integer> target = Collections.emptySortedSet();
    private long lastRenewalStart = NEVER;
    private boolean leaving;
    private long claims;
    private boolean wasInRing;
    private Instant inRingSince;
    private List<String> lastMembers = List.of();
    private long rebalances;
    private ShardingState.Handoffs handoffsIn = ShardingState.Handoffs.NONE;
    private ShardingState.Handoffs handoffsOut = ShardingState.Handoffs.NONE;
    private Set<String> incompatible = Set.of();

    ShardRing(String self, int buckets, Duration renewDeadline, Duration retryPeriod, Ticker ticker, Clock clock) {
        this.self = self;
        this.buckets = buckets;
        this.renewDeadline = renewDeadline;
        this.retryPeriod = retryPeriod;
        this.ticker = ticker;
        this.clock = clock;
        this.inRingSince = clock.instant();
    }

    String self() {
        return self;
    }

    /** Whether this replica's last successful write started less than the renew deadline ago. */
    boolean inRing() {
        return lastRenewalStart != NEVER && ticker.read() - lastRenewalStart < renewDeadline.toNanos();
    }

    /** When the renew deadline of the last successful write passes (monotonic nanos); {@link Long#MAX_VALUE} if none. */
    long renewDeadlineAt() {
        return lastRenewalStart == NEVER ? Long.MAX_VALUE : lastRenewalStart + renewDeadline.toNanos();
    }

    /** Which claim of {@code bucket} is under way (0 if none), for {@link #synced} and {@link #syncFailed}. */
    long claimOf(int bucket) {
        Local state = local.get(bucket);
        return state == null ? 0 : state.claim();
    }

    /** Stop taking buckets and give every bucket away (a graceful shutdown). */
    void leave() {
        leaving = true;
    }

    /** Decides this round from the ring as the replica sees it now. */
    Plan plan(RingView.Snapshot view) {
        long now = ticker.read();
        trackMembership(view);
        SortedSet<Integer> release = new TreeSet<>();
        SortedSet<Integer> drop = new TreeSet<>();
        SortedSet<Integer> claim = new TreeSet<>();
        if (!inRing()) {
            // not a member (yet, or fenced): hold nothing, only (re)join
            target = Collections.emptySortedSet();
            return new Plan(release, drop, claim, publishable(), true, target);
        }
        target = leaving || !incompatible.isEmpty() ? Collections.emptySortedSet() : assignmentFor(view);
        for (Map.Entry<Integer, Local> entry : new ArrayList<>(local.entrySet())) {
            int bucket = entry.getKey();
            Local state = entry.getValue();
            if (target.contains(bucket)) {
                continue;
            }
            switch (state.phase()) {
                case WAITING, CLAIMING -> local.remove(bucket);
                case SYNCING -> {
                    local.remove(bucket); // never opened: nothing of it ran here
                    drop.add(bucket);
                }
                case ACTIVE -> {
                    local.put(bucket, new Local(Phase.DRAINING, now, clock.instant(), now, state.claim()));
                    release.add(bucket);
                }
                case DRAINING -> {
                    // draining already
                }
            }
        }
        for (int bucket : target) {
            Local state = local.get(bucket);
            // a claim left CLAIMING by a round that failed half way is claimed again
            if (state != null && state.phase() != Phase.WAITING && state.phase() != Phase.CLAIMING) {
                continue;
            }
            long since = state == null ? now : state.handoffStartNanos();
            if (view.heldByOther(bucket)) {
                if (state == null) {
                    local.put(bucket, new Local(Phase.WAITING, now, clock.instant(), now, 0));
                }
                continue;
            }
            local.put(bucket, new Local(Phase.CLAIMING, now, clock.instant(), since, ++claims));
            claim.add(bucket);
        }
        SortedSet<Integer> publish = publishable();
        boolean renewalDue = now - lastRenewalStart >= retryPeriod.toNanos();
        return new Plan(release, drop, claim, publish, renewalDue || !publish.equals(published), target);
    }

    /**
     * The Lease was written with {@code set}, the write having started at {@code startNanos}. A
     * write that took longer than the renew deadline renews nothing: the fence may have fired.
     */
    void written(SortedSet<Integer> set, long startNanos) {
        published = Collections.unmodifiableSortedSet(new TreeSet<>(set));
        if (ticker.read() - startNanos < renewDeadline.toNanos()) {
            lastRenewalStart = Math.max(lastRenewalStart, startNanos);
        }
        trackInRing();
    }

    /**
     * The claimed buckets were read back consistently, as {@code quorum} shows the ring: those no
     * other live member claims are this replica's alone (the others are withdrawn).
     */
    Verification verify(SortedSet<Integer> claimed, RingView.Snapshot quorum) {
        SortedSet<Integer> confirmed = new TreeSet<>();
        SortedSet<Integer> withdrawn = new TreeSet<>();
        long now = ticker.read();
        for (int bucket : claimed) {
            Local state = local.get(bucket);
            if (state == null || state.phase() != Phase.CLAIMING) {
                continue;
            }
            if (!inRing() || quorum.heldByOther(bucket)) {
                local.remove(bucket);
                withdrawn.add(bucket);
                continue;
            }
            local.put(bucket, new Local(Phase.SYNCING, now, clock.instant(), state.handoffStartNanos(),
                    state.claim()));
            confirmed.add(bucket);
        }
        return new Verification(confirmed, withdrawn);
    }

    /** The claims could not be written or read back: nothing was acted upon, they are dropped. */
    void withdraw(SortedSet<Integer> claimed) {
        for (int bucket : claimed) {
            Local state = local.get(bucket);
            if (state != null && state.phase() == Phase.CLAIMING) {
                local.remove(bucket);
            }
        }
    }

    /**
     * The informers of claim {@code claim} of the bucket have synced: true if the bucket may open
     * now (that claim still stands and this replica is still in the ring).
     */
    boolean synced(int bucket, long claim) {
        Local state = local.get(bucket);
        if (state == null || state.phase() != Phase.SYNCING || state.claim() != claim || !inRing()) {
            return false;
        }
        long now = ticker.read();
        local.put(bucket, new Local(Phase.ACTIVE, now, clock.instant(), state.handoffStartNanos(), claim));
        handoffsIn = handoffsIn.plus(Duration.ofNanos(now - state.handoffStartNanos()));
        return true;
    }

    /** The informers of claim {@code claim} failed to list: the claim is given up, to be tried again next round. */
    void syncFailed(int bucket, long claim) {
        Local state = local.get(bucket);
        if (state != null && state.phase() == Phase.SYNCING && state.claim() == claim) {
            local.remove(bucket);
        }
    }

    /** Nothing of the bucket runs any more: it leaves this replica (the next write says so). */
    boolean drained(int bucket) {
        Local state = local.get(bucket);
        if (state == null || state.phase() != Phase.DRAINING) {
            return false;
        }
        local.remove(bucket);
        handoffsOut = handoffsOut.plus(Duration.ofNanos(ticker.read() - state.handoffStartNanos()));
        return true;
    }

    /**
     * The renew deadline passed without a successful write: drop every bucket now. Returns the
     * buckets that had informers running (to stop); the gate has closed the fence already.
     */
    SortedSet<Integer> fence() {
        SortedSet<Integer> running = new TreeSet<>();
        local.forEach((bucket, state) -> {
            if (state.phase() == Phase.SYNCING || state.phase() == Phase.ACTIVE || state.phase() == Phase.DRAINING) {
                running.add(bucket);
            }
        });
        local.clear();
        lastRenewalStart = NEVER;
        trackInRing();
        return running;
    }

    /** The phase of a bucket here, or null if it is none of this replica's business. */
    Phase phase(int bucket) {
        Local state = local.get(bucket);
        return state == null ? null : state.phase();
    }

    /** The buckets in a phase. */
    SortedSet<Integer> inPhase(Phase phase) {
        SortedSet<Integer> result = new TreeSet<>();
        local.forEach((bucket, state) -> {
            if (state.phase() == phase) {
                result.add(bucket);
            }
        });
        return result;
    }

    SortedSet<Integer> published() {
        return published;
    }

    SortedSet<Integer> target() {
        return target;
    }

    /** Live members with another bucket count: while they hold buckets, this replica takes none. */
    Set<String> incompatible() {
        return incompatible;
    }

    long rebalances() {
        return rebalances;
    }

    ShardingState.Handoffs handoffsIn() {
        return handoffsIn;
    }

    ShardingState.Handoffs handoffsOut() {
        return handoffsOut;
    }

    Instant inRingSince() {
        return inRingSince;
    }

    /** The buckets on the move here, for display. */
    List<ShardingState.Handoff> handoffs() {
        List<ShardingState.Handoff> moving = new ArrayList<>();
        local.forEach((bucket, state) -> {
            switch (state.phase()) {
                case WAITING -> moving.add(new ShardingState.Handoff(bucket, Direction.IN, "waiting", state.since()));
                case CLAIMING, SYNCING -> moving.add(new ShardingState.Handoff(bucket, Direction.IN, "syncing",
                        state.since()));
                case DRAINING -> moving.add(new ShardingState.Handoff(bucket, Direction.OUT, "draining",
                        state.since()));
                case ACTIVE -> {
                    // settled
                }
            }
        });
        return moving;
    }

    /** What the Lease must say now: every bucket this replica acts on or may. */
    SortedSet<Integer> publishable() {
        SortedSet<Integer> set = new TreeSet<>();
        local.forEach((bucket, state) -> {
            if (state.phase().published()) {
                set.add(bucket);
            }
        });
        return set;
    }

    /** This replica's share by {@link Assignment}, from what the live members hold (its own holdings as it knows them). */
    private SortedSet<Integer> assignmentFor(RingView.Snapshot view) {
        List<String> members = new ArrayList<>();
        view.members().forEach((identity, lease) -> {
            if (lease.buckets() == buckets) {
                members.add(identity);
            }
        });
        if (!members.contains(self)) {
            members.add(self);
        }
        Map<Integer, String> holders = new HashMap<>(view.holders());
        holders.values().removeIf(self::equals);
        local.forEach((bucket, state) -> {
            if (state.phase().published()) {
                holders.put(bucket, self);
            }
        });
        return Collections.unmodifiableSortedSet(Assignment.assign(buckets, members, holders).get(self));
    }

    private void trackMembership(RingView.Snapshot view) {
        Set<String> others = new TreeSet<>();
        view.members().forEach((identity, lease) -> {
            if (lease.buckets() != buckets && !lease.held().isEmpty()) {
                others.add(identity);
            }
        });
        incompatible = Collections.unmodifiableSet(others);
        List<String> members = view.members().keySet().stream().sorted().toList();
        if (!members.equals(lastMembers)) {
            if (!lastMembers.isEmpty()) {
                rebalances++;
            }
            lastMembers = members;
        }
    }

    private void trackInRing() {
        boolean now = inRing();
        if (now != wasInRing) {
            wasInRing = now;
            inRingSince = clock.instant();
        }
    }
}
