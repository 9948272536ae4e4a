package dev.kubeloop.queue;

/**
 * The queue's bookkeeping for one item, from its first add until it is neither pending nor held
 * by a worker. One entry per item keeps every operation at one hash lookup at most: {@code get}
 * needs none (the bucket links to the entry), {@code add} and {@code done} one each.
 *
 * <p>Not thread-safe: every field is guarded by the owning {@link PriorityWorkQueue}'s lock.
 */
final class QueueEntry<T> {

    /** Where the item's next run stands. */
    enum Pending {
        /** Not queued: the entry exists only because a worker holds the item. */
        NONE,
        /** Added with a delay that has not elapsed; held in the queue's delayed set. */
        WAITING,
        /** Ready and linked into its priority bucket: {@code get} may hand it out. */
        READY,
        /** Ready, but a worker holds the item: becomes READY when {@code done} is called. */
        BLOCKED
    }

    final T item;
    /** Unique among delayed entries: breaks ties between equal ready times in the delayed set. */
    long sequence;
    Pending pending = Pending.NONE;
    /** True while a worker holds the item (between {@code get} and {@code done}). */
    boolean processing;
    int priority;
    /** Ticker time at which the item may be handed out. */
    long readyAt;
    /** Ticker time at which the item became ready: start of queue latency and of starvation. */
    long readySince;
    /** Ticker time at which a worker got the item. */
    long processingSince;
    /** The bucket of {@link #priority} while READY or BLOCKED. */
    ReadyBuckets.Bucket<T> bucket;
    /** Links of the one {@link EntryList} the entry is in, if any. */
    QueueEntry<T> previous;
    QueueEntry<T> next;

    QueueEntry(T item) {
        this.item = item;
    }

    /** Nothing refers to the item any more: the entry can leave the queue's map. */
    boolean finished() {
        return pending == Pending.NONE && !processing;
    }

    @Override
    public String toString() {
        return item + "(" + pending + (processing ? ", processing" : "") + ", priority " + priority + ")";
    }
}
