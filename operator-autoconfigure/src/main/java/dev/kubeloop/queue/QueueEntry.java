package dev.kubeloop.queue;

/**
 * The queue's bookkeeping for one item. While pending it links into a {@link ReadyBuckets}
 * bucket; once handed out the same object records when processing started.
 *
 * <p>Not thread-safe: every field is guarded by the owning {@link PriorityWorkQueue}'s lock.
 */
final class QueueEntry<T> {

    enum State {
        /** Added with a delay that has not elapsed; held in the queue's delayed set. */
        WAITING,
        /** Ready and linked into its priority bucket: {@code get} may hand it out. */
        READY,
        /** Ready, but the item is being processed: queued again when {@code done} is called. */
        BLOCKED,
        /** Handed out to a worker. */
        PROCESSING
    }

    final T item;
    /** Unique and increasing: breaks ties between equal ready times in the delayed set. */
    final long sequence;
    State state;
    int priority;
    /** Ticker time at which the item may be handed out. */
    long readyAt;
    /** Ticker time at which the item became ready: start of queue latency and of starvation. */
    long readySince;
    /** Ticker time at which a worker got the item (valid in {@link State#PROCESSING}). */
    long processingSince;
    QueueEntry<T> previous;
    QueueEntry<T> next;

    QueueEntry(T item, long sequence, int priority, long readyAt) {
        this.item = item;
        this.sequence = sequence;
        this.priority = priority;
        this.readyAt = readyAt;
    }

    @Override
    public String toString() {
        return item + "(" + state + ", priority " + priority + ")";
    }
}
