package dev.kubeloop.sharding;

import dev.kubeloop.queue.Ticker;
import dev.kubeloop.runtime.Setting;
import dev.kubeloop.runtime.cache.ShardLayout;
import dev.kubeloop.runtime.controller.ReconcileFence;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.runtime.manager.ShardControl;
import dev.kubeloop.runtime.manager.ShardingState;
import dev.kubeloop.runtime.manager.WorkGate;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * thread: the protocol's state is confined to it); {@link RenewDeadline}'s
 * {@code kubeloop-sharding-fence} enforces the renew deadline on its own, so that an API call that
 * hangs cannot keep this replica acting; {@code kubeloop-sharding-labels} writes slot labels
 * ({@link SlotLabeler}). All end at {@link #close}. What health, metrics and introspection see is
 * built by {@link ShardingStatus}.
 *
 * <p>State ownership: {@code ring}, {@code view}, {@code leases} and {@code labeler} are confined to
 * the sharding thread; the renew deadline and the call under way are {@link RenewDeadline}'s (when
 * it reports a missed deadline, the sharding thread drops every bucket before it counts any
 * renewal); {@code state} is a volatile snapshot for health, metrics and introspection.
 *
 * <p>How the member sees the ring (a watch, a list per retry period, stale Leases deleted) is
 * {@link RingWatch}'s.
 */
public final class ShardingGate implements WorkGate, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShardingGate.class);
    /** A round planned for an expiry runs this much later, so that the member is expired by then. */
    private static final Duration EXPIRY_MARGIN = Duration.ofMillis(20);
    private final KubernetesClient client;
    private final ShardingSettings settings;
    private final ShardLayout layout;
    private final BucketFence fence;
    private final Ticker ticker;
    private final Clock clock;
    private final ShardRing ring;
    private final RingView view;
    private final MemberLeases leases;
    private final RingWatch ringWatch;
    private final Object lifecycle = new Object();
    // guarded by lifecycle; the executors are used from any thread once created
    private volatile ShardingThread sharding;
    private volatile RenewDeadline deadline;
    private boolean opened;
    private volatile boolean closed;
    // confined to the sharding thread
    private ShardControl shards;
    private SlotLabeler labeler;
    private boolean wasInRing;
    private String lastWriteFailure;
    private ScheduledFuture<?> expiryRound;
    private long scheduledExpiry;
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
        this.ringWatch = new RingWatch(leases, view, settings, ticker);
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
            sharding = new ShardingThread(this::round,
                    "ring=" + settings.describe() + " identity=" + settings.identity());
            deadline = new RenewDeadline(settings.renewDeadline(), ticker, this::deadlineMissed);
        }
        // the workers run from now on; the fence decides which keys they may reconcile
        workers.start();
        log.info("Sharding started, joining the ring: ring={} identity={} buckets={} lease-duration={} "
                + "renew-deadline={} retry-period={}", settings.describe(), settings.identity(), settings.buckets(),
                Setting.format(settings.leaseDuration()), Setting.format(settings.renewDeadline()), Setting.format(settings.retryPeriod()));
        run(() -> start(control));
    }

    /** On the sharding thread: watch the ring, then the first round once the watch has listed it. */
    private void start(ShardControl control) {
        shards = control;
        labeler = new SlotLabeler(client, layout, fence::isOpen);
        labeler.start(control.primaries());
        ringWatch.start(sharding);
        // every half retry period: renewals then come between one and one and a half retry periods apart
        long period = settings.retryPeriod().toNanos() / 2;
        sharding.scheduleWithFixedDelay(this::requestRound, period);
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
        ShardingThread executor;
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
                executor.submit(() -> {
                    leave();
                    return null;
                }).get(settings.renewDeadline().toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                log.warn("Leaving the ring took longer than {}; stopping anyway, the others take over once this "
                        + "replica's Lease expires: ring={} identity={}", Setting.format(settings.renewDeadline()),
                        settings.describe(), settings.identity());
            } catch (ExecutionException | RejectedExecutionException e) {
                log.warn("Leaving the ring failed: ring={} identity={}: {}", settings.describe(), settings.identity(),
                        e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            executor.close();
            deadline.close();
        }
    }

    /** On the sharding thread, at close. */
    private void leave() {
        if (labeler != null) {
            labeler.close();
        }
        ringWatch.stop();
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

    private void requestRound() {
        ShardingThread thread = sharding;
        if (thread != null) {
            thread.requestRound();
        }
    }

    /** One round of the protocol; on the sharding thread. */
    private void round() {
        if (closed || shards == null) {
            return;
        }
        fenceIfExpired();
        ringWatch.refresh(deadline);
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

    /** On the sharding thread: fences this replica if its renew deadline passed since its last successful write. */
    private void fenceIfExpired() {
        if (deadline.takeMissed() || wasInRing && !ring.inRing()) {
            fenceNow("its Lease was not renewed within renew-deadline (" + Setting.format(settings.renewDeadline()) + ")");
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
            long renewBy = ring.renewDeadlineAt();
            if (renewBy != Long.MAX_VALUE) {
                fence.renewed(renewBy); // what every write checks, on the clock, whatever the fence timer does
            }
            deadline.renewed(renewBy);
            return true;
        } catch (RuntimeException e) { // a KubernetesClientException, or the client's own failure
            if (!String.valueOf(e.getMessage()).equals(lastWriteFailure)) {
                log.warn("Could not write this replica's Lease (retrying every {}): ring={} identity={}: {}",
                        Setting.format(settings.retryPeriod()), settings.describe(), settings.identity(), e.getMessage());
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
                            Setting.format(settings.drainTimeout()), interrupted, settings.describe());
                }
            }, settings.drainTimeout().toNanos());
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

    /** On the fence thread: stop every reconcile at once if no renewal came in time. */
    private void deadlineMissed() {
        if (closed) {
            return;
        }
        deadline.markMissed();
        int inFlight = fence.closeAll();
        int interrupted = fence.interrupt(-1);
        state = state.outOfRing(clock.instant());
        deadline.interruptCall(); // a Lease call that hangs must not keep the ring from going on
        log.error("Lost this replica's place in the ring: its Lease was not renewed within renew-deadline ({}). "
                + "Stopped reconciling every bucket ({} reconciles in flight, {} interrupted); rejoining: ring={} "
                + "identity={}", Setting.format(settings.renewDeadline()), inFlight, interrupted, settings.describe(),
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
        deadline.reset();
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
        expiryRound = sharding.schedule(this::requestRound, delay);
    }

    private void publish() {
        state = snapshot(shards == null ? java.util.Map.of() : shards.cachedPrimaries());
    }

    private ShardingState snapshot(java.util.Map<String, Integer> objects) {
        return ShardingStatus.of(settings, ring, view.snapshot(ticker.read()), objects,
                labeler == null ? 0 : labeler.written());
    }

    /** Makes an API call on the sharding thread, interruptible by the fence thread. */
    private <R> R call(java.util.function.Supplier<R> request) {
        return deadline.call(request);
    }

    /** Runs {@code task} on the sharding thread, once opened. */
    private void run(Runnable task) {
        ShardingThread thread = sharding;
        if (thread != null) {
            thread.run(task);
        }
    }

    @Override
    public String toString() {
        return "ShardingGate[ring=" + settings.describe() + ", identity=" + settings.identity() + "]";
    }
}
