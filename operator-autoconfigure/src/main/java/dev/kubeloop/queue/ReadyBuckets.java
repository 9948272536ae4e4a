package dev.kubeloop.queue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

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
 * <p>Also counts BLOCKED entries (ready, but their item is held by a worker) per priority, so
 * that depth by priority matches client-go's {@code workqueue_depth}.
 *
 * <p>Not thread-safe: guarded by the owning {@link PriorityWorkQueue}'s lock.
 */
final class ReadyBuckets<T> {

    /** Empty buckets are kept to avoid churn on the hot path, unless there are more than this. */
    private static final int MAX_KEPT_BUCKETS = 16;

    /** Highest priority first. Tiny (one bucket per priority in use), so a sorted array wins. */
    @SuppressWarnings({"unchecked", "rawtypes"}) // no generic array creation in Java
    private Bucket<T>[] buckets = new Bucket[0];
    private Bucket<T> lastUsed;
    private final long starvationThresholdNanos;
    private boolean lastPickServedStarved;
    private int ready;
    private int blocked;

    ReadyBuckets(long starvationThresholdNanos) {
        this.starvationThresholdNanos = starvationThresholdNanos;
    }

    /** Links a ready entry at the tail of its priority's bucket. */
    void append(QueueEntry<T> entry) {
        Bucket<T> bucket = bucket(entry.priority);
        bucket.append(entry);
        entry.bucket = bucket;
        entry.pending = QueueEntry.Pending.READY;
        ready++;
    }

    /** Moves a READY entry to the tail of a higher priority's bucket. */
    void raise(QueueEntry<T> entry, int priority) {
        entry.bucket.unlink(entry);
        ready--;
        entry.priority = priority;
        append(entry);
    }

    /** Counts an entry that is ready while its item is held by a worker. */
    void block(QueueEntry<T> entry) {
        Bucket<T> bucket = bucket(entry.priority);
        bucket.blocked++;
        entry.bucket = bucket;
        entry.pending = QueueEntry.Pending.BLOCKED;
        blocked++;
    }

    /** Moves a BLOCKED entry's count to a higher priority. */
    void raiseBlocked(QueueEntry<T> entry, int priority) {
        entry.bucket.blocked--;
        blocked--;
        entry.priority = priority;
        block(entry);
    }

    /** Turns a BLOCKED entry into a READY one at the tail of its bucket. */
    void unblock(QueueEntry<T> entry) {
        entry.bucket.blocked--;
        blocked--;
        append(entry);
    }

    /** Unlinks and returns the entry to hand out next, or null when nothing is ready. */
    QueueEntry<T> poll(long now) {
        if (ready == 0) {
            return null;
        }
        int top = 0;
        while (buckets[top].head == null) {
            top++;
        }
        QueueEntry<T> pick = buckets[top].head;
        QueueEntry<T> starved = lastPickServedStarved ? null : longestStarvedBelow(top, now);
        lastPickServedStarved = starved != null;
        if (starved != null) {
            pick = starved;
        }
        pick.bucket.unlink(pick);
        pick.bucket = null;
        pick.pending = QueueEntry.Pending.NONE;
        ready--;
        return pick;
    }

    private QueueEntry<T> longestStarvedBelow(int top, long now) {
        QueueEntry<T> starved = null;
        for (int i = top + 1; i < buckets.length; i++) {
            QueueEntry<T> head = buckets[i].head;
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
        for (Bucket<T> bucket : buckets) {
            if (bucket.size + bucket.blocked > 0) {
                depths.put(bucket.priority, bucket.size + bucket.blocked);
            }
        }
        return depths;
    }

    private Bucket<T> bucket(int priority) {
        if (lastUsed != null && lastUsed.priority == priority) {
            return lastUsed;
        }
        int index = 0;
        while (index < buckets.length && buckets[index].priority > priority) {
            index++;
        }
        if (index == buckets.length || buckets[index].priority != priority) {
            purgeEmptyBucketsIfMany();
            index = 0;
            while (index < buckets.length && buckets[index].priority > priority) {
                index++;
            }
            Bucket<T>[] grown = Arrays.copyOf(buckets, buckets.length + 1);
            System.arraycopy(buckets, index, grown, index + 1, buckets.length - index);
            grown[index] = new Bucket<>(priority);
            buckets = grown;
        }
        lastUsed = buckets[index];
        return lastUsed;
    }

    private void purgeEmptyBucketsIfMany() {
        if (buckets.length >= MAX_KEPT_BUCKETS) {
            buckets = Arrays.stream(buckets)
                    .filter(bucket -> bucket.head != null || bucket.blocked > 0)
                    .toArray(size -> Arrays.copyOf(buckets, size));
            lastUsed = null;
        }
    }

    /** The ready entries of one priority, plus the count of its blocked ones. */
    static final class Bucket<T> extends EntryList<T> {
        final int priority;
        int blocked;

        Bucket(int priority) {
            this.priority = priority;
        }
    }
}
