package dev.kubeloop.queue;

import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Ready entries grouped by priority, FIFO within each priority, and the rule that picks the next
 * one to hand out.
 *
 * <p><b>Starvation rule.</b> The highest priority goes first. But once the oldest ready entry of a
 * lower priority has been ready for {@code starvationThresholdNanos} or longer, every second pick
 * serves the longest-starved such entry instead. So a long low-priority backlog (say, the initial
 * list after a restart) never delays a real change by more than one extra item per worker, and
 * low-priority work still gets at least half the throughput while higher priorities keep the
 * workers busy: nothing waits forever.
 *
 * <p>Also counts BLOCKED entries (ready, but their item is in processing) per priority, so that
 * depth by priority matches client-go's {@code workqueue_depth}.
 *
 * <p>Not thread-safe: guarded by the owning {@link PriorityWorkQueue}'s lock.
 */
final class ReadyBuckets<T> {

    /** Empty buckets are kept to avoid churn on the hot path, unless there are more than this. */
    private static final int MAX_KEPT_BUCKETS = 16;

    private final TreeMap<Integer, Bucket<T>> byPriority = new TreeMap<>(Comparator.reverseOrder());
    private final long starvationThresholdNanos;
    private boolean lastPickServedStarved;
    private int ready;
    private int blocked;

    ReadyBuckets(long starvationThresholdNanos) {
        this.starvationThresholdNanos = starvationThresholdNanos;
    }

    /** Links a ready entry at the tail of its priority's bucket. */
    void append(QueueEntry<T> entry) {
        bucket(entry.priority).append(entry);
        entry.state = QueueEntry.State.READY;
        ready++;
    }

    /** Moves a READY entry to the tail of a higher priority's bucket. */
    void raise(QueueEntry<T> entry, int priority) {
        Bucket<T> from = byPriority.get(entry.priority);
        from.unlink(entry);
        entry.priority = priority;
        bucket(priority).append(entry);
    }

    /** Counts an entry that is ready while its item is in processing. */
    void block(QueueEntry<T> entry) {
        bucket(entry.priority).blocked++;
        entry.state = QueueEntry.State.BLOCKED;
        blocked++;
    }

    /** Moves a BLOCKED entry's count to a higher priority. */
    void raiseBlocked(QueueEntry<T> entry, int priority) {
        byPriority.get(entry.priority).blocked--;
        entry.priority = priority;
        bucket(priority).blocked++;
    }

    /** Turns a BLOCKED entry into a READY one at the tail of its bucket. */
    void unblock(QueueEntry<T> entry) {
        byPriority.get(entry.priority).blocked--;
        blocked--;
        append(entry);
    }

    /** Unlinks and returns the entry to hand out next, or null when nothing is ready. */
    QueueEntry<T> poll(long now) {
        if (ready == 0) {
            return null;
        }
        Iterator<Bucket<T>> buckets = byPriority.values().iterator();
        Bucket<T> top = buckets.next();
        while (top.head == null) {
            top = buckets.next();
        }
        QueueEntry<T> pick = top.head;
        QueueEntry<T> starved = lastPickServedStarved ? null : longestStarvedBelow(buckets, now);
        lastPickServedStarved = starved != null;
        if (starved != null) {
            pick = starved;
        }
        byPriority.get(pick.priority).unlink(pick);
        ready--;
        purgeEmptyBucketsIfMany();
        return pick;
    }

    private QueueEntry<T> longestStarvedBelow(Iterator<Bucket<T>> lowerBuckets, long now) {
        QueueEntry<T> starved = null;
        while (lowerBuckets.hasNext()) {
            QueueEntry<T> head = lowerBuckets.next().head;
            if (head != null && now - head.readySince >= starvationThresholdNanos
                    && (starved == null || head.readySince < starved.readySince)) {
                starved = head;
            }
        }
        return starved;
    }

    /** Entries a {@code get} could hand out now. */
    int ready() {
        return ready;
    }

    /** Ready plus blocked entries: client-go's queue depth. */
    int depth() {
        return ready + blocked;
    }

    Map<Integer, Integer> depthByPriority() {
        Map<Integer, Integer> depths = new LinkedHashMap<>();
        byPriority.forEach((priority, bucket) -> {
            if (bucket.size + bucket.blocked > 0) {
                depths.put(priority, bucket.size + bucket.blocked);
            }
        });
        return depths;
    }

    private Bucket<T> bucket(int priority) {
        Bucket<T> bucket = byPriority.get(priority);
        if (bucket == null) {
            bucket = new Bucket<>();
            byPriority.put(priority, bucket);
        }
        return bucket;
    }

    private void purgeEmptyBucketsIfMany() {
        if (byPriority.size() > MAX_KEPT_BUCKETS) {
            byPriority.values().removeIf(bucket -> bucket.head == null && bucket.blocked == 0);
        }
    }

    /** An intrusive doubly linked FIFO list: O(1) append, unlink and head removal, no allocation. */
    private static final class Bucket<T> {
        QueueEntry<T> head;
        QueueEntry<T> tail;
        int size;
        int blocked;

        void append(QueueEntry<T> entry) {
            entry.previous = tail;
            entry.next = null;
            if (tail == null) {
                head = entry;
            } else {
                tail.next = entry;
            }
            tail = entry;
            size++;
        }

        void unlink(QueueEntry<T> entry) {
            if (entry.previous == null) {
                head = entry.next;
            } else {
                entry.previous.next = entry.next;
            }
            if (entry.next == null) {
                tail = entry.previous;
            } else {
                entry.next.previous = entry.previous;
            }
            entry.previous = null;
            entry.next = null;
            size--;
        }
    }
}
