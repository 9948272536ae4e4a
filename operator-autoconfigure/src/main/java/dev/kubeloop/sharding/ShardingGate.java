package dev.kubeloop.sharding;

import dev.kubeloop.queue.Ticker;
import dev.kubeloop.runtime.NamedThreadFactory;
import dev.kubeloop.runtime.cache.ShardLayout;
import dev.kubeloop.runtime.controller.ReconcileFence;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.runtime.manager.ShardControl;
import dev.kubeloop.runtime.manager.ShardingState;
import dev.kubeloop.runtime.manager.WorkGate;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sharding, as a {@link WorkGate}: the replicas of an operator form a ring on Leases, split the
 * primaries into buckets among them, and each one caches and reconciles the buckets it holds. The
 * protocol is {@link ShardRing}'s; this class carries it out: it watches the ring's Leases, writes
 * its own, starts and stops bucket informers through the manager ({@link ShardControl}), opens and
 * closes the {@link BucketFence} every reconcile passes, and labels new primaries
 * ({@link SlotLabeler}).
 *
 * <p>Lifecycle: {@link #open} (the manager's unsharded caches have synced) starts the workers,
 * which reconcile only what the fence admits, watches the ring and joins it. {@link #shutdownStarted}
 * gives every bucket away as soon as its reconciles in flight end, so that the others take over
 * while the manager still drains; {@link #close} then leaves the ring (an empty Lease, deleted).
 *
 * <p>Threads: {@code kubeloop-sharding} runs every round and every API call of the ring (one
 * thread: the protocol's state is confined to it); {@code kubeloop-sharding-fence} enforces the
 * renew deadline on its own, so that an API call that hangs cannot keep this replica acting;
 * {@code kubeloop-sharding-labels} writes slot labels. All end at {@link #close}.
 *
 * <p>State ownership: {@code ring}, {@code view}, {@code leases} and {@code labeler} are confined to
 * the sharding thread; {@code renewDeadlineAt} is written there and read by the fence thread;
 * {@code fenced} is set by the fence thread and consumed by the sharding thread, which then drops
 * every bucket before it counts any renewal; {@code callingThread} (the sharding thread while it
 * waits for the API server) is guarded by {@code callLock}, so that the fence thread and a call's
 * timeout interrupt only the call under way, never the next one; {@code state} is a volatile
 * snapshot for health, metrics and introspection.
 *
 * <p>Every member also lists the ring once per retry period (a broken watch must not leave it
 * planning on an old ring) and deletes the Leases of members gone for four lease durations.
 */
public final class ShardingGate implements WorkGate, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShardingGate.class);
    /** A round planned for an expiry runs this much later, so that the member is expired by then. */
    private static final Duration EXPIRY_MARGIN = Duration.ofMillis(20);
    private static final long NEVER_LISTED = Long.MIN_VALUE;
    /**
     * A Lease unchanged for this many lease durations belongs to a member long gone (SIGKILLed with
     * a random identity, it never comes back): any member deletes it, so that the ring does not
     * grow with every crash.
     */
    private static final int STALE_LEASE_DURATIONS = 4;

    private final KubernetesClient client;
    private final ShardingSettings settings;
    private final ShardLayout layout;
    private final BucketFence fence;
    private final Ticker ticker;
    private final Clock clock;
    private final ShardRing ring;
    private final RingView view;
    private final MemberLeases leases;
    private final AtomicLong renewDeadlineAt = new AtomicLong(Long.MAX_VALUE);
    private final AtomicBoolean roundQueued = new AtomicBoolean();
    /** Set by the fence thread when it fenced this replica; the sharding thread then drops every bucket. */
    private final AtomicBoolean fenced = new AtomicBoolean();
    private final Object lifecycle = new Object();
    // guarded by lifecycle; the executors are used from any thread once created
    private volatile ScheduledThreadPoolExecutor sharding;
    private volatile ScheduledThreadPoolExecutor fenceTimer;
    private boolean opened;
    private volatile boolean closed;
    // confined to the sharding thread
    private ShardControl shards;
    private SharedIndexInformer<Lease> watch;
    private SlotLabeler labeler;
    private boolean wasInRing;
    private String lastWriteFailure;
    private ScheduledFuture<?> expiryRound;
    private long scheduledExpiry;
    private long lastList = NEVER_LISTED;
    /** The sharding thread while it waits for the API server; the fence thread interrupts it. */
    private final Object callLock = new Object();
    // guarded by callLock
    private Thread callingThread;
    private volatile ShardingState state;

    public ShardingGate(KubernetesClient client, ShardingSettings settings) {
        this(client, settings, Ticker.system(), Clock.systemUTC());
    }

    ShardingGate(KubernetesClient client, ShardingSettings settings, Ticker ticker, Clock clock) {
        this.client = Objects.requireNonNull(client, "client");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.layout = settings.layout();
        this.fence = new BucketFence(layout, ticker);
        this.ticker = ticker;
        this.clock = clock;
        this.ring = new ShardRing(settings.identity(), settings.buckets(), settings.renewDeadline(),
                settings.retryPeriod(), ticker, clock);
        this.view = new RingView(settings.identity());
        this.leases = new MemberLeases(client, settings);
        this.state = snapshot(java.util.Map.of());
    }

    public ShardingSettings settings() {
        return settings;
    }

    @Override
    public Optional<ShardLayout> shardLayout() {
        return Optional.of(layout);
    }

    @Override
    public ReconcileFence fence() {
        return fence;
    }

    @Override
    public Optional<ShardingState> sharding() {
        return Optional.of(state);
    }

    /** Every replica acts on its share: there is no leader. */
    @Override
    public LeadershipState state() {
        return LeadershipState.NOT_ELECTED;
    }

    @Override
    public void open(Workers workers) {
        Objects.requireNonNull(workers, "workers");
        ShardControl control = workers.shards().orElseThrow(() -> new IllegalStateException(
                "the manager was not built with this gate's shard layout"));
        synchronized (lifecycle) {
            if (opened || closed) {
                throw new IllegalStateException("the sharding gate opens once");
            }
            opened = true;
            sharding = new ScheduledThreadPoolExecutor(1,
                    runnable -> NamedThreadFactory.single("kubeloop-sharding", runnable));
            sharding.setRemoveOnCancelPolicy(true);
            fenceTimer = new ScheduledThreadPoolExecutor(1,
                    runnable -> NamedThreadFactory.single("kubeloop-sharding-fence", runnable));
            fenceTimer.setRemoveOnCancelPolicy(true);
        }
        // the workers run from now on; the fence decides which keys they may reconcile
        workers.start();
        log.info("Sharding started, joining the ring: ring={} identity={} buckets={} lease-duration={} "
                + "renew-deadline={} retry-period={}", settings.describe(), settings.identity(), settings.buckets(),
                format(settings.leaseDuration()), format(settings.renewDeadline()), format(settings.retryPeriod()));
        run(() -> start(control));
    }

    /** On the sharding thread: watch the ring, then the first round once the watch has listed it. */
    private void start(ShardControl control) {
        shards = control;
        labeler = new SlotLabeler(client, layout, fence::isOpen);
        labeler.start(control.primaries());
        watch = leases.informer();
        watch.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Lease lease) {
                changed(lease, false);
            }

            @Override
            public void onUpdate(Lease before, Lease lease) {
                changed(lease, false);
            }

            @Override
            public void onDelete(Lease lease, boolean unknownState) {
                changed(lease, true);
            }
        });
        watch.start().whenComplete((ignored, error) -> {
            if (error != null) {
                log.warn("Cannot watch the ring's Leases ({}): this replica sees the ring only through its own "
                        + "reads. Grant list and watch on leases: ring={}", error.toString(), settings.describe());
            }
            requestRound();
        });
        // every half retry period: renewals then come between one and one and a half retry periods apart
        long period = settings.retryPeriod().toNanos() / 2;
        sharding.scheduleWithFixedDelay(this::requestRound, period, period, TimeUnit.NANOSECONDS);
    }

    /** A ring Lease changed (on the informer's thread): record it and plan again. */
    private void changed(Lease lease, boolean deleted) {
        long now = ticker.read();
        run(() -> {
            if (deleted) {
                view.deleted(lease.getMetadata().getName(), now);
            } else {
                MemberLeases.read(lease).ifPresent(member -> view.update(member, now));
            }
        });
        requestRound();
    }

    @Override
    public void shutdownStarted() {
        run(() -> {
            ring.leave();
            log.info("Leaving the ring, giving every bucket away as its reconciles end: ring={} identity={}",
                    settings.describe(), settings.identity());
            round();
        });
    }

    /**
     * Leaves the ring: writes an empty Lease and deletes it (the manager has drained, nothing of
     * this replica runs any more), then stops every thread. Waits up to the renew deadline for
     * the API server. Idempotent.
     */
    @Override
    public void close() {
        ScheduledThreadPoolExecutor executor;
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            executor = sharding;
        }
        fence.closeAll();
        if (executor != null) {
            try {
                executor.submit(this::leave).get(settings.renewDeadline().toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                log.warn("Leaving the ring took longer than {}; stopping anyway, the others take over once this "
                        + "replica's Lease expires: ring={} identity={}", format(settings.renewDeadline()),
                        settings.describe(), settings.identity());
            } catch (ExecutionException | RejectedExecutionException e) {
                log.warn("Leaving the ring failed: ring={} identity={}: {}", settings.describe(), settings.identity(),
                        e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            executor.shutdownNow();
            fenceTimer.shutdownNow();
        }
    }

    /** On the sharding thread, at close. */
    private void leave() {
        if (labeler != null) {
            labeler.close();
        }
        if (watch != null) {
            watch.stop();
        }
        try {
            leases.leave(clock.instant());
            log.info("Left the ring: ring={} identity={}", settings.describe(), settings.identity());
        } catch (KubernetesClientException e) {
            log.warn("Could not remove this replica's Lease; the others take over once it expires: ring={} "
                    + "identity={}: {}", settings.describe(), settings.identity(), e.getMessage());
        }
        publish();
    }

    // ---- rounds ---------------------------------------------------------------------------------

    /** Plans a round on the sharding thread, unless one is queued already. */
    private void requestRound() {
        if (roundQueued.compareAndSet(false, true)) {
            run(() -> {
                roundQueued.set(false);
                round();
            });
        }
    }

    /** One round of the protocol; on the sharding thread. */
    private void round() {
        if (closed || shards == null) {
            return;
        }
        fenceIfExpired();
        refreshView();
        long now = ticker.read();
        view.prune(now);
        if (closed) {
            return;
        }
        RingView.Snapshot snapshot = view.snapshot(now);
        ShardRing.Plan plan = ring.plan(snapshot);
        plan.drop().forEach(shards::stopBucket);
        for (int bucket : plan.release()) {
            release(bucket);
        }
        if (!plan.release().isEmpty()) {
            log.info("Giving buckets away as the ring's assignment moved them: ring={} identity={} buckets={} "
                    + "keeping={}", settings.describe(), settings.identity(), plan.release(), plan.target());
        }
        boolean written = !plan.write() || write(plan.publish());
        if (!plan.claim().isEmpty()) {
            if (written) {
                claim(plan.claim());
            } else {
                ring.withdraw(plan.claim()); // never written, so never acted upon
            }
        }
        fenceIfExpired(); // the write may have taken the renew deadline: drop everything before anything else
        scheduleExpiryRound(snapshot);
        publish();
    }

    /**
     * Lists the ring's Leases once per retry period, on top of the watch: a watch that broke (and
     * is backing off) must not leave this replica planning on a stale ring for long. One small
     * list per member per retry period.
     */
    private void refreshView() {
        long now = ticker.read();
        if (lastList != NEVER_LISTED && now - lastList < settings.retryPeriod().toNanos()) {
            return;
        }
        try {
            List<MemberLease> all = call(leases::list);
            lastList = now;
            view.listed(all, ticker.read());
        } catch (RuntimeException e) {
            log.debug("Could not list the ring's Leases: ring={}: {}", settings.describe(), e.getMessage());
            return;
        }
        long staleAfter = settings.leaseDuration().multipliedBy(STALE_LEASE_DURATIONS).toNanos();
        for (MemberLease stale : view.stale(ticker.read(), staleAfter)) {
            try {
                call(() -> {
                    leases.deleteStale(stale);
                    return null;
                });
                log.info("Deleted the Lease of a member gone for {} lease durations: ring={} identity={} lease={}",
                        STALE_LEASE_DURATIONS, settings.describe(), settings.identity(), stale.name());
            } catch (RuntimeException e) {
                log.debug("Could not delete the stale Lease {}: ring={}: {}", stale.name(), settings.describe(),
                        e.getMessage());
            }
        }
    }

    /** On the sharding thread: fences this replica if its renew deadline passed since its last successful write. */
    private void fenceIfExpired() {
        if (fenced.getAndSet(false) || wasInRing && !ring.inRing()) {
            fenceNow("its Lease was not renewed within renew-deadline (" + format(settings.renewDeadline()) + ")");
        }
    }

    /** Writes this replica's Lease; true if it succeeded (a renewal). */
    private boolean write(SortedSet<Integer> held) {
        long start = ticker.read();
        try {
            Lease stored = call(() -> leases.write(held, clock.instant()));
            // the fence fired while the write was under way: what the ring holds is void, whatever the write says
            fenceIfExpired();
            ring.written(held, start);
            log.debug("Wrote this replica's Lease: ring={} identity={} resourceVersion={} held={} took={}ms",
                    settings.describe(), settings.identity(), stored.getMetadata().getResourceVersion(), held,
                    (ticker.read() - start) / 1_000_000);
            lastWriteFailure = null;
            boolean inRing = ring.inRing();
            if (inRing && !wasInRing) {
                log.info("Joined the ring: ring={} identity={} lease={}", settings.describe(), settings.identity(),
                        settings.leaseName());
            }
            wasInRing = inRing;
            long deadline = ring.renewDeadlineAt();
            renewDeadlineAt.set(deadline);
            if (deadline != Long.MAX_VALUE) {
                fence.renewed(deadline); // what every write checks, on the clock, whatever the fence timer does
            }
            scheduleFenceCheck(deadline);
            return true;
        } catch (RuntimeException e) { // a KubernetesClientException, or the client's own failure
            if (!String.valueOf(e.getMessage()).equals(lastWriteFailure)) {
                log.warn("Could not write this replica's Lease (retrying every {}): ring={} identity={}: {}",
                        format(settings.retryPeriod()), settings.describe(), settings.identity(), e.getMessage());
                lastWriteFailure = String.valueOf(e.getMessage());
            }
            return false;
        }
    }

    /** The claim is written: read every Lease back, then list what is this replica's alone. */
    private void claim(SortedSet<Integer> claimed) {
        long fenceEpoch = fence.epoch();
        RingView.Snapshot quorum;
        try {
            quorum = view.verify(call(leases::list), ticker.read());
        } catch (RuntimeException e) {
            log.warn("Could not read the ring back after claiming buckets {}; withdrawing them: ring={}: {}", claimed,
                    settings.describe(), e.getMessage());
            ring.withdraw(claimed);
            write(ring.publishable());
            return;
        }
        ShardRing.Verification verification = ring.verify(claimed, quorum);
        if (!verification.withdrawn().isEmpty()) {
            log.info("Another member claimed buckets at the same time; withdrawing them: ring={} identity={} "
                    + "buckets={}", settings.describe(), settings.identity(), verification.withdrawn());
            write(ring.publishable());
        }
        for (int bucket : verification.confirmed()) {
            long claim = ring.claimOf(bucket);
            // the watch cache's current state, like any informer's first list (docs/sharding.md#guarantees: a
            // list not older than the claim made quiet types wait for a 504 on 1.20, retried with backoff)
            shards.startBucket(bucket).whenComplete((ignored, error) -> run(() -> synced(bucket, claim, fenceEpoch,
                    error)));
        }
    }

    /** A claimed bucket's informers listed it (or failed to); on the sharding thread. */
    private void synced(int bucket, long claim, long fenceEpoch, Throwable error) {
        if (error != null) {
            if (ring.phase(bucket) != ShardRing.Phase.SYNCING || ring.claimOf(bucket) != claim) {
                return; // given up meanwhile: its informers were stopped on purpose
            }
            ring.syncFailed(bucket, claim);
            shards.stopBucket(bucket);
            log.warn("Could not list bucket {} ({}); it is claimed again at the next round: ring={}", bucket,
                    error.toString(), settings.describe());
            requestRound();
            return;
        }
        if (!ring.synced(bucket, claim)) {
            if (ring.phase(bucket) == null) {
                shards.stopBucket(bucket); // given up meanwhile
            }
            return;
        }
        if (!fence.open(bucket, fenceEpoch)) {
            return; // fenced meanwhile: the fence's round drops it
        }
        shards.enqueueBucket(bucket);
        labeler.bucketOpened(bucket);
        log.info("Took bucket {} over: ring={} identity={}", bucket, settings.describe(), settings.identity());
        publish();
    }

    /** Closes a bucket; once its reconciles ended it leaves this replica. */
    private void release(int bucket) {
        fence.close(bucket).thenRun(() -> run(() -> drained(bucket)));
        if (!settings.drainTimeout().isZero()) {
            sharding.schedule(() -> {
                if (ring.phase(bucket) == ShardRing.Phase.DRAINING) {
                    int interrupted = fence.interrupt(bucket);
                    log.warn("Reconciles of bucket {} still running {} after it was given away; interrupted {} of "
                            + "them (kubeloop.sharding.drain-timeout): ring={}", bucket,
                            format(settings.drainTimeout()), interrupted, settings.describe());
                }
            }, settings.drainTimeout().toNanos(), TimeUnit.NANOSECONDS);
        } else {
            fence.interrupt(bucket);
        }
    }

    private void drained(int bucket) {
        if (ring.drained(bucket)) {
            shards.stopBucket(bucket);
            round(); // publish the release at once: the next holder waits for it
        }
    }

    // ---- fencing ---------------------------------------------------------------------------------

    private void scheduleFenceCheck(long deadline) {
        long delay = deadline - ticker.read();
        try {
            fenceTimer.schedule(this::fenceCheck, Math.max(0, delay), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    /** On the fence thread: stop every reconcile at once if no renewal came in time. */
    private void fenceCheck() {
        if (closed || ticker.read() < renewDeadlineAt.get()) {
            return;
        }
        fenced.set(true);
        int inFlight = fence.closeAll();
        int interrupted = fence.interrupt(-1);
        state = state.outOfRing(clock.instant());
        interruptCall(); // a Lease call that hangs must not keep the ring from going on
        log.error("Lost this replica's place in the ring: its Lease was not renewed within renew-deadline ({}). "
                + "Stopped reconciling every bucket ({} reconciles in flight, {} interrupted); rejoining: ring={} "
                + "identity={}", format(settings.renewDeadline()), inFlight, interrupted, settings.describe(),
                settings.identity());
        requestRound();
    }

    /** On the sharding thread: the ring forgets every bucket; their informers stop. */
    private void fenceNow(String reason) {
        fence.closeAll();
        fence.interrupt(-1);
        SortedSet<Integer> running = ring.fence();
        running.forEach(shards::stopBucket);
        wasInRing = false;
        renewDeadlineAt.set(Long.MAX_VALUE);
        publish();
        log.warn("Out of the ring, holding nothing until it rejoins ({}): ring={} identity={} dropped={}", reason,
                settings.describe(), settings.identity(), running);
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /**
     * A member that dies sends nothing: plans a round for when the first holder of a bucket this
     * replica waits for expires, so that the bucket moves then rather than at the next tick.
     */
    private void scheduleExpiryRound(RingView.Snapshot snapshot) {
        long expiry = snapshot.earliestExpiry(ring.inPhase(ShardRing.Phase.WAITING));
        if (expiry == Long.MAX_VALUE || expiry == scheduledExpiry) {
            return;
        }
        if (expiryRound != null) {
            expiryRound.cancel(false);
        }
        scheduledExpiry = expiry;
        long delay = expiry - ticker.read() + EXPIRY_MARGIN.toNanos();
        expiryRound = sharding.schedule(this::requestRound, Math.max(0, delay), TimeUnit.NANOSECONDS);
    }

    private void publish() {
        state = snapshot(shards == null ? java.util.Map.of() : shards.cachedPrimaries());
    }

    private ShardingState snapshot(java.util.Map<String, Integer> objects) {
        long now = ticker.read();
        List<ShardingState.Member> members = new ArrayList<>();
        RingView.Snapshot ringNow = view.snapshot(now);
        for (MemberLease lease : ringNow.leases()) {
            members.add(new ShardingState.Member(lease.hasHolder() ? lease.identity() : "(left) " + lease.name(),
                    ringNow.members().containsKey(lease.identity()), lease.held(), lease.renewTime()));
        }
        return new ShardingState(settings.ring(), settings.namespace(), settings.identity(), settings.buckets(),
                ring.inRing(), ring.inRingSince(), members,
                ring.inRing() ? ring.inPhase(ShardRing.Phase.ACTIVE) : java.util.Collections.emptySortedSet(),
                ring.target(),
                ring.handoffs(), ring.rebalances(), ring.handoffsIn(), ring.handoffsOut(), objects,
                labeler == null ? 0 : labeler.written(), "labels");
    }

    /** Makes an API call on the sharding thread, interruptible by the fence thread. */
    private <R> R call(java.util.function.Supplier<R> request) {
        Thread caller = Thread.currentThread();
        synchronized (callLock) {
            callingThread = caller;
        }
        // no call may hold the ring up longer than the renew deadline, in or out of the ring
        ScheduledFuture<?> timeout = null;
        try {
            timeout = fenceTimer.schedule(this::interruptCall, settings.renewDeadline().toNanos(),
                    TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closing: the call is bounded by the client's own timeouts
        }
        try {
            return request.get();
        } finally {
            synchronized (callLock) {
                callingThread = null;
            }
            if (timeout != null) {
                timeout.cancel(false);
            }
            Thread.interrupted(); // an interrupt meant for this call must not fail the next one
        }
    }

    /** Interrupts the Lease call under way, if any (under the lock: never the call after it). */
    private void interruptCall() {
        synchronized (callLock) {
            if (callingThread != null) {
                callingThread.interrupt();
            }
        }
    }

    /** Runs {@code task} on the sharding thread; logs what it throws, so that the thread goes on. */
    private void run(Runnable task) {
        ScheduledThreadPoolExecutor executor = sharding;
        if (executor == null || executor.isShutdown()) {
            return;
        }
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    log.error("Sharding step failed: ring={} identity={}", settings.describe(), settings.identity(), e);
                }
            });
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    static String format(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    @Override
    public String toString() {
        return "ShardingGate[ring=" + settings.describe() + ", identity=" + settings.identity() + "]";
    }
}
