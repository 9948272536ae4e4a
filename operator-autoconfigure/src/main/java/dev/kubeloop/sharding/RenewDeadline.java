package dev.kubeloop.sharding;

import dev.kubeloop.queue.Ticker;
import dev.kubeloop.runtime.NamedThreadFactory;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The renew deadline, enforced on a thread of its own ({@code kubeloop-sharding-fence}): a replica
 * whose Lease was not renewed in time must stop acting even while the sharding thread hangs in an
 * API call, so the check cannot run on the thread it guards. It also bounds every Lease call made
 * through {@link #call}: past the renew deadline the call's thread is interrupted.
 *
 * <p>State ownership: {@code deadlineAt} is written by the sharding thread ({@link #renewed},
 * {@link #reset}) and read by the fence thread; {@code missed} is set by the fence thread
 * ({@link #markMissed}) and consumed by the sharding thread ({@link #takeMissed});
 * {@code callingThread} is guarded by {@code callLock}, so that an interrupt reaches only the call
 * under way, never the next one.
 */
final class RenewDeadline implements AutoCloseable {

    private final Ticker ticker;
    private final Duration renewDeadline;
    private final Runnable onMissed;
    private final ScheduledThreadPoolExecutor timer;
    private final AtomicLong deadlineAt = new AtomicLong(Long.MAX_VALUE);
    private final AtomicBoolean missed = new AtomicBoolean();
    private final Object callLock = new Object();
    // guarded by callLock
    private Thread callingThread;

    /** {@code onMissed} runs on the fence thread when a deadline passed without a renewal. */
    RenewDeadline(Duration renewDeadline, Ticker ticker, Runnable onMissed) {
        this.renewDeadline = renewDeadline;
        this.ticker = ticker;
        this.onMissed = onMissed;
        this.timer = NamedThreadFactory.scheduler("kubeloop-sharding-fence");
    }

    /** A write renewed the Lease: the next check is due at {@code deadline} (ticker nanos). */
    void renewed(long deadline) {
        deadlineAt.set(deadline);
        try {
            timer.schedule(this::check, Math.max(0, deadline - ticker.read()), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed
        }
    }

    /** Out of the ring: no deadline until the next renewal. */
    void reset() {
        deadlineAt.set(Long.MAX_VALUE);
    }

    /** On the fence thread, from {@code onMissed}: the sharding thread drops every bucket at its next step. */
    void markMissed() {
        missed.set(true);
    }

    /** On the sharding thread: whether the fence thread fenced this replica since the last call. */
    boolean takeMissed() {
        return missed.getAndSet(false);
    }

    private void check() {
        if (ticker.read() >= deadlineAt.get()) {
            onMissed.run();
        }
    }

    /** Makes an API call on the calling thread, interrupted if it outlasts the renew deadline. */
    <R> R call(Supplier<R> request) {
        Thread caller = Thread.currentThread();
        synchronized (callLock) {
            callingThread = caller;
        }
        // no call may hold the ring up longer than the renew deadline, in or out of the ring
        ScheduledFuture<?> timeout = null;
        try {
            timeout = timer.schedule(this::interruptCall, renewDeadline.toNanos(), TimeUnit.NANOSECONDS);
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
    void interruptCall() {
        synchronized (callLock) {
            if (callingThread != null) {
                callingThread.interrupt();
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
