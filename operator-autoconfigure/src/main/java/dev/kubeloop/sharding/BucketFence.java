package dev.kubeloop.sharding;

import dev.kubeloop.queue.Ticker;
import dev.kubeloop.runtime.cache.ShardLayout;
import dev.kubeloop.runtime.controller.ReconcileFence;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The fence every reconcile of a sharded replica passes: a primary is reconciled only while the
 * bucket of its uid is open here, and each admitted reconcile holds a permit until it (and its
 * writes) ended. Closing a bucket admits nothing more of it at once; {@link #close} completes
 * when the bucket's last permit is returned, which is when the bucket may leave this replica.
 *
 * <p>The bucket is computed from the uid, never from the slot label: a label someone edits can
 * move an object's cache entry, but never who reconciles it.
 *
 * <p>{@link #closeAll} is the fence of a replica that lost its place in the ring: it closes every
 * bucket and moves the epoch on, so that an open prepared before it ({@link #open} with the older
 * epoch) is refused. {@link #interrupt} interrupts the threads holding a bucket's permits, under
 * the lock, so that a thread is interrupted only while it is still inside that reconcile.
 *
 * <p>Writes: a permit {@linkplain Permit#holds() holds} while the epoch it was admitted in lasts and
 * this replica's last Lease renewal is younger than the renew deadline on the monotonic clock
 * ({@link #renewed}); every write request of the reconcile is checked against it just before it
 * leaves. A paused replica resumes with its fence timer as late as its workers, so its writes are
 * refused on the clock alone; and once fenced (a new epoch) a reconcile admitted before never
 * writes again, even after the replica has rejoined the ring. A bucket closed for a handoff does
 * not void its permits: the handoff waits for them.
 *
 * <p>Thread-safety: every field below is guarded by {@code lock}, but {@code epoch} is also
 * volatile (read without it by every write's check) and {@code writesValidUntil} is volatile,
 * written by the sharding thread after each renewal; workers enter and leave, the sharding threads
 * open, close and interrupt.
 */
final class BucketFence implements ReconcileFence {

    private final ShardLayout layout;
    private final Ticker ticker;
    private volatile long writesValidUntil;
    private final Object lock = new Object();
    // guarded by lock
    private final boolean[] open;
    private final int[] inFlight;
    private final Map<Thread, Integer> holders = new HashMap<>();
    private final Map<Integer, CompletableFuture<Void>> drains = new HashMap<>();
    private volatile long epoch;

    BucketFence(ShardLayout layout, Ticker ticker) {
        this.layout = layout;
        this.ticker = ticker;
        this.writesValidUntil = ticker.read();
        this.open = new boolean[layout.buckets()];
        this.inFlight = new int[layout.buckets()];
    }

    @Override
    public Permit enter(HasMetadata primary) {
        int bucket = layout.bucketOf(primary);
        if (bucket < 0) {
            return null;
        }
        Thread thread = Thread.currentThread();
        long admitted;
        synchronized (lock) {
            if (!open[bucket]) {
                return null;
            }
            inFlight[bucket]++;
            holders.put(thread, bucket);
            admitted = epoch;
        }
        return new Permit() {
            private boolean closed;

            @Override
            public boolean holds() {
                return admitted == epoch && ticker.read() - writesValidUntil < 0;
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    exit(bucket, thread);
                }
            }
        };
    }

    private void exit(int bucket, Thread thread) {
        CompletableFuture<Void> drained = null;
        synchronized (lock) {
            inFlight[bucket]--;
            holders.remove(thread);
            if (inFlight[bucket] == 0 && !open[bucket]) {
                drained = drains.remove(bucket);
            }
        }
        if (drained != null) {
            drained.complete(null);
        }
    }

    /** This replica's Lease was renewed: writes may leave until {@code validUntil} (monotonic nanos). */
    void renewed(long validUntil) {
        writesValidUntil = validUntil;
    }

    /** The current epoch; pass it to {@link #open}. */
    long epoch() {
        synchronized (lock) {
            return epoch;
        }
    }

    /** Opens the bucket, unless {@link #closeAll} ran since {@code expectedEpoch} was read; returns whether it opened. */
    boolean open(int bucket, long expectedEpoch) {
        synchronized (lock) {
            if (epoch != expectedEpoch) {
                return false;
            }
            open[bucket] = true;
            return true;
        }
    }

    /** Admits nothing more of the bucket; completes once its reconciles in flight have ended. */
    CompletableFuture<Void> close(int bucket) {
        synchronized (lock) {
            open[bucket] = false;
            if (inFlight[bucket] == 0) {
                return CompletableFuture.completedFuture(null);
            }
            return drains.computeIfAbsent(bucket, b -> new CompletableFuture<>());
        }
    }

    /** Closes every bucket and moves the epoch on; returns how many reconciles were in flight. */
    int closeAll() {
        synchronized (lock) {
            epoch++;
            Arrays.fill(open, false);
            return holders.size();
        }
    }

    /** Interrupts the reconciles in flight of {@code bucket} (all buckets for -1); returns how many. */
    int interrupt(int bucket) {
        synchronized (lock) {
            Set<Thread> threads = new HashSet<>();
            holders.forEach((thread, held) -> {
                if (bucket < 0 || held == bucket) {
                    threads.add(thread);
                }
            });
            threads.forEach(Thread::interrupt);
            return threads.size();
        }
    }

    boolean isOpen(int bucket) {
        synchronized (lock) {
            return open[bucket];
        }
    }

    /** Reconciles in flight in {@code bucket}. */
    int inFlight(int bucket) {
        synchronized (lock) {
            return inFlight[bucket];
        }
    }
}
