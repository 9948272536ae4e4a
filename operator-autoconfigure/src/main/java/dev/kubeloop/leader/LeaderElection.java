package dev.kubeloop.leader;

import dev.kubeloop.runtime.Setting;
import dev.kubeloop.queue.Ticker;
import dev.kubeloop.runtime.NamedThreadFactory;
import dev.kubeloop.runtime.controller.ReconcileFence;
import dev.kubeloop.runtime.manager.LeadershipState;
import dev.kubeloop.runtime.manager.LeadershipState.Role;
import dev.kubeloop.runtime.manager.WorkGate;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a Lease, as a {@link WorkGate}: the manager's workers run only while this
 * replica holds the Lease. Built on fabric8's {@code LeaderElector} and {@code LeaseLock}; what
 * this class adds is the gating, the shutdown order and fast failover.
 *
 * <p><b>Terms.</b> A fabric8 {@code LeaderElector} runs once: it acquires, renews until it fails or
 * is cancelled, and ends. Each elector is a <em>term</em> here. A term that ends while leading ends
 * the leadership (the workers stop at once, its lock is {@linkplain ObservedLeaseLock#fence()
 * fenced}); with {@link OnLost#STANDBY} a new term then stands by, with {@link OnLost#EXIT} the
 * {@link LeadershipLostHandler} exits the application.
 *
 * <p><b>Losing the Lease.</b> fabric8 stops leading when a renewal finds another holder, or when
 * no renewal succeeded for the renew deadline, but it checks the deadline only between attempts.
 * This class also keeps a timer from the last renewal that it saw succeed, so a renewal call that
 * hangs cannot keep the workers running past the deadline: the margin {@code leaseDuration -
 * renewDeadline} then separates the moment this replica stops from the moment another may start.
 *
 * <p><b>Fencing writes.</b> The timer above fires late when the whole replica was paused (a long GC
 * pause, a frozen VM), and so do the workers it would stop. So each reconcile's writes are also
 * checked, immediately before each request leaves ({@link #fence()}), against the last renewal on
 * the monotonic clock: valid until its start plus the renew deadline, and only within the
 * leadership the reconcile began in.
 *
 * <p><b>Fast failover.</b> fabric8 tries to acquire every retry period plus up to 120 % jitter. A
 * {@link LeaseWatch} tells a standby the moment the Lease is released (or when, by its record, it
 * expires); the standby then replaces its waiting term with a new one, whose first attempt runs at
 * once. The old term is fenced first, so two terms of one replica never write the Lease.
 *
 * <p><b>Shutdown.</b> The manager calls {@link #shutdownStarted()} (from then on, no worker starts
 * and a loss does not exit), drains its workers, then {@link #close()}, which cancels the term:
 * fabric8 releases the Lease if it is held and {@code releaseOnShutdown} is set.
 *
 * <p>Threads: fabric8's loops run on {@code kubeloop-leader-<n>} (a cached pool; fabric8 schedules
 * them from its own shared timer thread), the renew-deadline and expiry timers on
 * {@code kubeloop-leader-timer}, the lost handler on {@code kubeloop-leader-lost}. All of them
 * end at {@link #close()}.
 *
 * <p>Thread-safety: the state below is guarded by {@code lock}. Lock order: fabric8's elector
 * (its callbacks run inside its synchronized methods), then {@code lock}, then the manager's
 * workers; nothing here calls into an elector while holding {@code lock}, except to start a new
 * one. {@link #state()} is a volatile snapshot.
 */
public final class LeaderElection implements WorkGate, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);
    /** A kick at the Lease's expiry comes this much later, so that fabric8's check agrees it has expired. */
    private static final Duration EXPIRY_MARGIN = Duration.ofMillis(20);

    private final KubernetesClient client;
    private final LeaderElectionSettings settings;
    private final LeadershipLostHandler lostHandler;

    private final Object lock = new Object();
    // guarded by lock
    private Workers workers;
    private Term term;
    private int terms;
    private boolean shuttingDown;
    private boolean closed;
    private ExecutorService electorThreads;
    private ScheduledThreadPoolExecutor timer;
    private LeaseWatch watch;
    private ScheduledFuture<?> expiryKick;
    private Instant kickAt;

    private volatile LeadershipState state;
    /**
     * Until when (monotonic nanos) this replica's writes may leave: the start of its last successful
     * renewal plus the renew deadline. Written by an elector thread after each renewal; read by
     * every write's fence check. Not a flag that a timer clears: a paused replica's timers are late.
     */
    private volatile long writesValidUntil;
    /** Moves on whenever leadership ends: a reconcile admitted before never writes after, even if the Lease is won back. */
    private volatile long tenure;
    private final Ticker ticker;

    /**
     * @param lostHandler called when the Lease is lost with {@link OnLost#EXIT}; not called with
     *     {@link OnLost#STANDBY}
     */
    public LeaderElection(KubernetesClient client, LeaderElectionSettings settings, LeadershipLostHandler lostHandler) {
        this(client, settings, lostHandler, Ticker.system());
    }

    LeaderElection(KubernetesClient client, LeaderElectionSettings settings, LeadershipLostHandler lostHandler,
            Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.writesValidUntil = ticker.read();
        this.client = Objects.requireNonNull(client, "client");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.lostHandler = Objects.requireNonNull(lostHandler, "lostHandler");
        this.state = new LeadershipState(true, Role.STANDBY, settings.identity(), settings.leaseNamespace(),
                settings.leaseName(), null, Instant.now());
    }

    public LeaderElectionSettings settings() {
        return settings;
    }

    @Override
    public LeadershipState state() {
        return state;
    }

    /**
     * Admits every reconcile (the workers run only while leading); each permit holds while this
     * replica's last renewal is younger than the renew deadline on the monotonic clock, and
     * leadership has not ended since the reconcile began.
     */
    @Override
    public ReconcileFence fence() {
        return primary -> new LeasePermit(tenure);
    }

    /** Whether a write admitted in {@code admitted} may leave now. */
    boolean writesValid(long admitted) {
        return admitted == tenure && ticker.read() - writesValidUntil < 0;
    }

    private final class LeasePermit implements ReconcileFence.Permit {
        private final long admitted;

        LeasePermit(long admitted) {
            this.admitted = admitted;
        }

        @Override
        public boolean holds() {
            return writesValid(admitted);
        }

        @Override
        public void close() {
        }
    }

    /** Starts standing by: watches the Lease and tries to acquire it. */
    @Override
    public void open(Workers workers) {
        Objects.requireNonNull(workers, "workers");
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("leader election is closed");
            }
            if (this.workers != null) {
                throw new IllegalStateException("leader election is already open");
            }
            this.workers = workers;
            electorThreads = Executors.newCachedThreadPool(NamedThreadFactory.numbered("kubeloop-leader-"));
            timer = new ScheduledThreadPoolExecutor(1,
                    runnable -> NamedThreadFactory.single("kubeloop-leader-timer", runnable));
            timer.setRemoveOnCancelPolicy(true);
            log.info("Leader election started, standing by: lease={} identity={} lease-duration={} renew-deadline={} "
                    + "retry-period={} on-lost={}", settings.lease(), settings.identity(),
                    Setting.format(settings.leaseDuration()),
                    Setting.format(settings.renewDeadline()),
                    Setting.format(settings.retryPeriod()), settings.onLost().name().toLowerCase());
            watch = new LeaseWatch(client, settings.leaseNamespace(), settings.leaseName(), this::leaseChanged);
            watch.start();
            term = startTerm();
        }
    }

    @Override
    public void shutdownStarted() {
        synchronized (lock) {
            shuttingDown = true;
            cancelKick();
        }
    }

    /**
     * Ends the current term, releasing the Lease if this replica holds it and
     * {@code releaseOnShutdown} is set, and stops every thread. Waits up to the renew deadline for
     * the release. Idempotent.
     */
    @Override
    public void close() {
        Term last;
        boolean leading;
        LeaseWatch stoppedWatch;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            shuttingDown = true;
            tenure++;
            cancelKick();
            last = term;
            leading = last != null && last.leading;
            if (last != null) {
                cancel(last.deadline);
            }
            stoppedWatch = watch;
        }
        // the watch first: it serves a standby only, and the release below should be the last word
        if (stoppedWatch != null) {
            stoppedWatch.close();
        }
        if (last != null) {
            if (leading && !settings.releaseOnShutdown()) {
                log.info("Stopping without releasing the Lease (release-on-shutdown=false): lease={} identity={}; a "
                        + "standby takes over once it expires", settings.lease(), settings.identity());
            }
            // fabric8 releases the Lease on cancel, in the cancelling thread; a hung call must not hold up shutdown
            Future<?> cancelled = electorThreads.submit(() -> last.future.cancel(true));
            try {
                cancelled.get(settings.renewDeadline().toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                log.warn("Releasing the Lease took longer than {}; stopping anyway: lease={} identity={}",
                        Setting.format(settings.renewDeadline()), settings.lease(),
                        settings.identity());
            } catch (ExecutionException e) {
                log.warn("Releasing the Lease failed: lease={} identity={}: {}", settings.lease(), settings.identity(),
                        e.getCause().toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (lock) {
            if (state.role() == Role.LEADER) {
                setRole(Role.STANDBY);
            }
        }
        if (electorThreads != null) {
            electorThreads.shutdownNow();
            timer.shutdownNow();
        }
    }

    @Override
    public String toString() {
        return "LeaderElection[lease=" + settings.lease() + ", identity=" + settings.identity() + ", role="
                + state.role() + "]";
    }

    // ---- terms ------------------------------------------------------------------------------

    /** Starts a new fabric8 elector; its first acquire attempt runs at once. Under lock. */
    private Term startTerm() {
        Term next = new Term(++terms);
        next.lock = new ObservedLeaseLock(
                new LeaseLock(settings.leaseNamespace(), settings.leaseName(), settings.identity()),
                record -> written(next, record));
        LeaderCallbacks callbacks = new LeaderCallbacks(() -> started(next), () -> stopped(next),
                holder -> observed(next, holder));
        next.future = new LeaderElectorBuilder(client, electorThreads).withConfig(new LeaderElectionConfigBuilder()
                .withName(settings.leaseName())
                .withLock(next.lock)
                .withLeaseDuration(settings.leaseDuration())
                .withRenewDeadline(settings.renewDeadline())
                .withRetryPeriod(settings.retryPeriod())
                .withReleaseOnCancel(settings.releaseOnShutdown())
                .withLeaderCallbacks(callbacks)
                .build()).build().start();
        return next;
    }

    /** Fences a term and cancels its elector in the background (the cancel may wait for a call in flight). */
    private void retire(Term old) {
        old.lock.fence();
        try {
            electorThreads.execute(() -> old.future.cancel(true));
        } catch (RejectedExecutionException e) {
            // closed: its threads are gone already
        }
    }

    // ---- fabric8 callbacks (on an elector thread, inside the elector's lock) --------------------

    private void started(Term t) {
        try {
            synchronized (lock) {
                if (t != term || t.lock.fenced()) {
                    return; // replaced meanwhile: a newer term of this replica takes the Lease over
                }
                if (shuttingDown) {
                    log.info("Acquired the Lease while shutting down; the workers stay stopped: lease={} identity={}",
                            settings.lease(), settings.identity());
                    return;
                }
                t.leading = true;
                state = state.withHolder(settings.identity());
                setRole(Role.LEADER);
                log.info("Became leader: lease={} identity={}", settings.lease(), settings.identity());
                workers.start();
            }
        } catch (RuntimeException e) {
            log.error("Failed to start the workers after acquiring the Lease: lease={} identity={}", settings.lease(),
                    settings.identity(), e);
        }
    }

    private void stopped(Term t) {
        try {
            String holder = state.holder();
            leadershipEnded(t, holder != null && !holder.equals(settings.identity())
                    ? "the Lease was taken over by " + holder
                    : "the Lease could not be renewed");
        } catch (RuntimeException e) {
            log.error("Failed to stop the workers after losing the Lease: lease={} identity={}", settings.lease(),
                    settings.identity(), e);
        }
    }

    private void observed(Term t, String holder) {
        String observedHolder = holder == null || holder.isEmpty() ? null : holder;
        synchronized (lock) {
            if (t != term) {
                return;
            }
            String previous = state.holder();
            if (Objects.equals(previous, observedHolder)) {
                return;
            }
            state = state.withHolder(observedHolder);
            if (observedHolder != null && !observedHolder.equals(settings.identity())) {
                log.info("New leader observed: lease={} holder={} identity={}", settings.lease(), observedHolder,
                        settings.identity());
            } else if (observedHolder == null && previous != null && !previous.equals(settings.identity())) {
                log.info("Lease released by its holder: lease={} holder={} identity={}", settings.lease(), previous,
                        settings.identity());
            }
        }
    }

    /** A write of the term's lock succeeded: a renewal (or acquisition) restarts the renew-deadline timer. */
    private void written(Term t, LeaderElectionRecord record) {
        String holder = record.getHolderIdentity();
        if (holder == null || holder.isEmpty()) {
            log.info("Released the Lease: lease={} identity={}", settings.lease(), settings.identity());
            return;
        }
        if (!holder.equals(settings.identity())) {
            return;
        }
        Instant renewed = record.getRenewTime().toInstant();
        // fabric8 took renewTime before its GET: on the monotonic clock, that instant is now less the wall time since
        long renewedAt = ticker.read() - Math.max(0, Duration.between(renewed, Instant.now()).toNanos());
        synchronized (lock) {
            if (t != term || closed) {
                return;
            }
            writesValidUntil = renewedAt + settings.renewDeadline().toNanos();
            t.lastRenewal = renewed;
            cancel(t.deadline);
            long delay = Duration.between(Instant.now(), renewed.plus(settings.renewDeadline())).toNanos();
            t.deadline = timer.schedule(() -> renewDeadlinePassed(t, renewed), Math.max(0, delay),
                    TimeUnit.NANOSECONDS);
        }
    }

    private void renewDeadlinePassed(Term t, Instant renewed) {
        synchronized (lock) {
            if (t != term || !t.leading || !renewed.equals(t.lastRenewal)) {
                return;
            }
        }
        log.warn("Lease not renewed within renew-deadline ({}): lease={} identity={} last-renewal={}",
                Setting.format(settings.renewDeadline()), settings.lease(), settings.identity(),
                renewed);
        leadershipEnded(t, "the Lease could not be renewed within renew-deadline");
    }

    /**
     * Stops acting at once: fences the term (it writes no more), stops taking work and interrupts
     * the reconciles in flight; then exits or stands by again. Once per term; not for the release
     * at {@link #close()}, where the workers have drained already.
     */
    private void leadershipEnded(Term t, String reason) {
        boolean exit;
        synchronized (lock) {
            if (t != term || !t.leading) {
                return;
            }
            t.leading = false;
            tenure++;
            cancel(t.deadline);
            if (closed) {
                setRole(Role.STANDBY);
                return;
            }
            retire(t);
            exit = settings.onLost() == OnLost.EXIT && !shuttingDown;
            setRole(exit ? Role.LOST : Role.STANDBY);
        }
        boolean ended = workers.stop(settings.interruptGrace());
        if (!ended) {
            log.warn("Reconciles were still running {} after losing the Lease: lease={} identity={}",
                    Setting.format(settings.interruptGrace()), settings.lease(), settings.identity());
        }
        if (exit) {
            log.error("Lost leadership: lease={} identity={} ({}). Workers stopped; exiting so that Kubernetes "
                    + "restarts this replica (on-lost=exit)", settings.lease(), settings.identity(), reason);
            LeadershipState lost = state;
            Thread handler = new Thread(() -> {
                try {
                    lostHandler.leadershipLost(lost);
                } catch (RuntimeException | Error e) {
                    log.error("The leadership-lost handler failed", e);
                }
            }, "kubeloop-leader-lost");
            handler.setDaemon(false); // the exit must happen even if nothing else keeps the JVM alive
            handler.start();
            return;
        }
        synchronized (lock) {
            if (shuttingDown) {
                log.warn("Lost leadership while shutting down: lease={} identity={} ({}); reconciles in flight were "
                        + "interrupted", settings.lease(), settings.identity(), reason);
                return;
            }
            log.warn("Lost leadership: lease={} identity={} ({}). Workers stopped; standing by again "
                    + "(on-lost=standby)", settings.lease(), settings.identity(), reason);
            if (term == t) {
                term = startTerm();
            }
        }
    }

    // ---- fast failover ------------------------------------------------------------------------

    /** The Lease changed (or is gone): a standby tries at once when it is free, or when it expires. */
    private void leaseChanged(Lease lease) {
        synchronized (lock) {
            if (!standingBy()) {
                return;
            }
            LeaseSpec spec = lease == null ? null : lease.getSpec();
            String holder = spec == null || spec.getHolderIdentity() == null || spec.getHolderIdentity().isEmpty()
                    ? null : spec.getHolderIdentity();
            if (holder == null) {
                cancelKick();
                acquireNow();
                return;
            }
            if (holder.equals(settings.identity()) || spec.getRenewTime() == null
                    || spec.getLeaseDurationSeconds() == null) {
                return;
            }
            Instant expiry = spec.getRenewTime().toInstant().plusSeconds(spec.getLeaseDurationSeconds())
                    .plus(EXPIRY_MARGIN);
            if (expiry.equals(kickAt)) {
                return;
            }
            cancelKick();
            kickAt = expiry;
            long delay = Duration.between(Instant.now(), expiry).toNanos();
            expiryKick = timer.schedule(() -> expired(expiry), Math.max(0, delay), TimeUnit.NANOSECONDS);
        }
    }

    private void expired(Instant expiry) {
        synchronized (lock) {
            if (expiry.equals(kickAt) && standingBy()) {
                kickAt = null;
                acquireNow();
            }
        }
    }

    /** Replaces the waiting term with a new one, whose first attempt runs now. Under lock. */
    private void acquireNow() {
        log.debug("Lease free or expired, trying to acquire it now: lease={} identity={}", settings.lease(),
                settings.identity());
        Term waiting = term;
        retire(waiting);
        term = startTerm();
    }

    /** Open, not shutting down, and the current term waits for the Lease. Under lock. */
    private boolean standingBy() {
        return term != null && !shuttingDown && !term.leading && !term.lock.fenced();
    }

    private void cancelKick() {
        cancel(expiryKick);
        expiryKick = null;
        kickAt = null;
    }

    private static void cancel(Future<?> future) {
        if (future != null) {
            future.cancel(false);
        }
    }

    private void setRole(Role role) {
        state = state.withRole(role, Instant.now());
    }

    /** One fabric8 elector. Fields other than the final ones are guarded by {@link LeaderElection#lock}. */
    private static final class Term {
        final int number;
        ObservedLeaseLock lock;
        CompletableFuture<?> future;
        boolean leading;
        Instant lastRenewal;
        ScheduledFuture<?> deadline;

        Term(int number) {
            this.number = number;
        }

        @Override
        public String toString() {
            return "Term[" + number + "]";
        }
    }
}
