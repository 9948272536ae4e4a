package dev.kubeloop.queue;

import java.time.Duration;
import java.util.Optional;

/**
 * A deduplicating, delaying, rate-limited priority queue of work items, with client-go's
 * {@code workqueue} contract:
 *
 * <ul>
 *   <li><b>Dedup.</b> An item that is queued (not yet handed out) is queued once, however often it
 *       is added. Items are compared with {@code equals}/{@code hashCode}: use immutable keys.
 *   <li><b>Exclusive.</b> An item handed out by {@link #get()} is never handed out again until
 *       {@link #done} is called for it. If it is added while being processed, it is queued again
 *       on {@code done}, exactly once.
 *   <li><b>Delay.</b> {@link #addAfter} holds an item back until its delay has elapsed; adding an
 *       item that is already pending keeps the earliest ready time and the highest priority.
 *   <li><b>Priority.</b> {@link #get()} hands out the highest priority first, FIFO within one
 *       priority, except that an item starving at a lower priority is served every second get
 *       (see {@link PriorityWorkQueue}).
 *   <li><b>Shutdown.</b> After {@link #shutDown()} adds are ignored and {@code get} keeps handing
 *       out what is queued, then returns empty; delayed items that are not ready yet are dropped.
 * </ul>
 *
 * <p>All methods are thread-safe.
 *
 * @param <T> the item type, typically an object key
 */
public interface WorkQueue<T> {

    /** The priority of ordinary adds. */
    int NORMAL_PRIORITY = 0;

    /**
     * The priority the runtime gives to the initial list and to periodic resyncs, so that real
     * changes go first after a restart (controller-runtime's {@code LowPriority}).
     */
    int LOW_PRIORITY = -100;

    /** Adds an item at {@link #NORMAL_PRIORITY}, ready now. */
    default void add(T item) {
        add(item, NORMAL_PRIORITY);
    }

    /** Adds an item ready now; an already pending item keeps the higher of the two priorities. */
    void add(T item, int priority);

    /** Adds an item at {@link #NORMAL_PRIORITY} once {@code delay} has elapsed. */
    default void addAfter(T item, Duration delay) {
        addAfter(item, delay, NORMAL_PRIORITY);
    }

    /**
     * Adds an item once {@code delay} has elapsed; a delay of zero or less adds it now. An already
     * pending item keeps the earliest ready time and the highest priority.
     */
    void addAfter(T item, Duration delay, int priority);

    /**
     * Adds an item at {@link #NORMAL_PRIORITY} after the delay the rate limiter assigns to it,
     * which grows with every call until {@link #forget} is called for the item.
     */
    default void addRateLimited(T item) {
        addRateLimited(item, NORMAL_PRIORITY);
    }

    /**
     * Adds an item at {@code priority} after the delay the rate limiter assigns to it. A retry
     * passes the priority the item was handed out at ({@link #getWithPriority()}), so that a
     * low-priority item that fails is not promoted to normal priority by its retry
     * (controller-runtime's priority queue keeps it too).
     */
    void addRateLimited(T item, int priority);

    /** Tells the rate limiter that the item succeeded: its backoff starts over. */
    void forget(T item);

    /** How many times the item has been re-added through {@link #addRateLimited} since it was forgotten. */
    int numRequeues(T item);

    /**
     * Blocks until an item is ready and hands it out; the caller must call {@link #done} with it.
     *
     * @return the item, or empty once the queue is shut down and nothing is left to hand out
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    default Optional<T> get() throws InterruptedException {
        return getWithPriority().map(Prioritized::item);
    }

    /**
     * {@link #get()}, with the priority the item was queued at (controller-runtime's
     * {@code GetWithPriority}), for requeues that keep it.
     */
    Optional<Prioritized<T>> getWithPriority() throws InterruptedException;

    /** An item handed out, with the priority it was queued at. */
    record Prioritized<T>(T item, int priority) {
    }

    /**
     * Marks the item as no longer being processed. If it was added meanwhile it is queued again.
     * Calling it for an item that is not being processed does nothing.
     */
    void done(T item);

    /** The number of items {@link #get()} could hand out right now. */
    int len();

    /** Stops accepting adds and wakes every waiting {@link #get()}. Idempotent. */
    void shutDown();

    /**
     * {@link #shutDown()}, then waits until every item handed out has been {@link #done}.
     *
     * @return true if processing drained within the timeout, false if it timed out
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    boolean shutDownWithDrain(Duration timeout) throws InterruptedException;

    /** True once {@link #shutDown()} has been called. */
    boolean isShuttingDown();

    /** A snapshot of the queue's gauges. */
    WorkQueueStats stats();
}
