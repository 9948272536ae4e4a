package dev.kubeloop.queue;

/**
 * Receives the events that work queue metrics are made of (client-go's {@code MetricsProvider}).
 *
 * <p>Gauges (depth, unfinished work, longest running processor) are not pushed: read them from
 * {@link WorkQueue#stats()} when a metrics registry samples. Methods are called while the queue's
 * lock is held, from whichever thread touched the queue: implementations must be thread-safe,
 * fast and must never block or call back into the queue.
 */
public interface WorkQueueListener {

    /** A listener that ignores everything. */
    WorkQueueListener NOOP = new WorkQueueListener() {
    };

    /**
     * An item became queued (ready to be handed out, or waiting for its earlier run to finish).
     * Adds that are deduplicated against an already queued item are not reported, as in client-go.
     */
    default void added(int priority) {
    }

    /** An item was handed to a worker after waiting {@code queuedNanos} since it became ready. */
    default void dequeued(long queuedNanos) {
    }

    /** A worker called {@code done} for an item it held for {@code workNanos}. */
    default void done(long workNanos) {
    }

    /**
     * An item was added through {@link WorkQueue#addAfter} or {@link WorkQueue#addRateLimited};
     * client-go counts every delayed add as a retry ({@code workqueue_retries_total}).
     */
    default void retried() {
    }
}
