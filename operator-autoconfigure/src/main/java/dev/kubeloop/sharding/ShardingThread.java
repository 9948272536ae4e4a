package dev.kubeloop.sharding;

import dev.kubeloop.runtime.NamedThreadFactory;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread ({@code kubeloop-sharding}) the ring's protocol runs on: every round, every Lease
 * call and every reaction to a bucket's informers, so that the protocol's state needs no lock.
 * Rounds asked for while one is queued coalesce into it. A task that throws is logged and the
 * thread goes on; once closed, tasks are dropped.
 *
 * <p>State ownership: {@code roundQueued} is set by any thread asking for a round and cleared by
 * the sharding thread as the round starts.
 */
final class ShardingThread implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShardingGate.class);

    private final ScheduledThreadPoolExecutor executor;
    private final AtomicBoolean roundQueued = new AtomicBoolean();
    private final Runnable round;
    private final String context;

    /** {@code context} names the ring and the member in failure logs. */
    ShardingThread(Runnable round, String context) {
        this.round = round;
        this.context = context;
        this.executor = NamedThreadFactory.scheduler("kubeloop-sharding");
    }

    /** Runs {@code task} on the sharding thread; logs what it throws, so that the thread goes on. */
    void run(Runnable task) {
        if (executor.isShutdown()) {
            return;
        }
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    log.error("Sharding step failed: {}", context, e);
                }
            });
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    /** Plans a round on the sharding thread, unless one is queued already. */
    void requestRound() {
        if (roundQueued.compareAndSet(false, true)) {
            run(() -> {
                roundQueued.set(false);
                round.run();
            });
        }
    }

    ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
        return executor.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    }

    void scheduleWithFixedDelay(Runnable task, long periodNanos) {
        executor.scheduleWithFixedDelay(task, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
    }

    <T> Future<T> submit(Callable<T> task) {
        return executor.submit(task);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
