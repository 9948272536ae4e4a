package dev.kubeloop.queue;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link WorkQueue} implementation: one lock and one entry per item that is pending or held
 * by a worker (see {@link QueueEntry}).
 *
 * <p><b>Delays without a timer thread.</b> Delayed items sit in a set ordered by ready time. Every
 * operation first moves the items whose time has come to the ready buckets, and a {@code get}
 * that finds nothing ready sleeps exactly until the earliest ready time (or until an earlier item
 * or a ready one arrives). So there is no polling and no extra thread per queue; a delayed item's
 * queue latency is measured from its ready time, not from the moment someone noticed it.
 *
 * <p><b>Priorities.</b> Highest first, FIFO within a priority, with the starvation rule described
 * in {@link ReadyBuckets}: an item that has been ready for longer than the starvation threshold
 * (default 10 s) at a lower priority is served every second get.
 *
 * <p><b>Thread safety.</b> All state is owned by this object and guarded by {@code lock}; the
 * rate limiter is thread-safe on its own and is called outside the lock. Listener callbacks run
 * under the lock (see {@link WorkQueueListener}).
 *
 * @param <T> the item type; must have value semantics for {@code equals}/{@code hashCode}
 */
public final class PriorityWorkQueue<T> implements WorkQueue<T> {

    /** Default for {@link Builder#starvationThreshold}. */
    public static final Duration DEFAULT_STARVATION_THRESHOLD = Duration.ofSeconds(10);

    private final String name;
    private final RateLimiter<T> rateLimiter;
    private final WorkQueueListener listener;
    private final Ticker ticker;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled when an item becomes ready, an earlier delayed item arrives, or on shutdown. */
    private final Condition readyOrEarlier = lock.newCondition();
    /** Signalled when the processing set becomes empty. */
    private final Condition processingEmpty = lock.newCondition();

    // Everything below is guarded by lock.
    /** Every item that is pending, held by a worker, or both. */
    private final Map<T, QueueEntry<T>> entries = new HashMap<>();
    /** Entries held by workers, oldest first (for the unfinished-work gauges). */
    private final EntryList<T> processing = new EntryList<>();
    private final TreeSet<QueueEntry<T>> delayed = new TreeSet<>(
            Comparator.<QueueEntry<T>>comparingLong(entry -> entry.readyAt)
                    .thenComparingLong(entry -> entry.sequence));
    private final ReadyBuckets<T> buckets;
    private long nextSequence;
    private boolean shuttingDown;
    /** The get that sleeps until the earliest delayed item is due, if any (see awaitReadyOrDue). */
    private Thread timerThread;

    private PriorityWorkQueue(Builder<T> builder) {
        this.name = builder.name;
        this.rateLimiter = builder.rateLimiter;
        this.listener = builder.listener;
        this.ticker = builder.ticker;
        this.buckets = new ReadyBuckets<>(Durations.saturatedNanos(builder.starvationThreshold));
    }

    /** A queue with client-go's default controller rate limiter and no listener. */
    public static <T> PriorityWorkQueue<T> create(String name) {
        return PriorityWorkQueue.<T>builder(name).build();
    }

    public static <T> Builder<T> builder(String name) {
        return new Builder<>(name);
    }

    /** The name given at construction, for logs and metric tags. */
    public String name() {
        return name;
    }

    @Override
    public void add(T item, int priority) {
        enqueue(item, priority, 0, false);
    }

    @Override
    public void addAfter(T item, Duration delay, int priority) {
        // client-go counts every AddAfter as a retry (workqueue_retries_total); so do we.
        enqueue(item, priority, Durations.saturatedNanos(Objects.requireNonNull(delay, "delay")), true);
    }

    @Override
    public void addRateLimited(T item, int priority) {
        // The limiter is thread-safe on its own; asking it outside the lock keeps the lock short.
        long delayNanos = Durations.saturatedNanos(rateLimiter.when(Objects.requireNonNull(item, "item")));
        enqueue(item, priority, delayNanos, true);
    }

    @Override
    public void forget(T item) {
        rateLimiter.forget(item);
    }

    @Override
    public int numRequeues(T item) {
        return rateLimiter.numRequeues(item);
    }

    @Override
    public Optional<Prioritized<T>> getWithPriority() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            // The clock is read under the lock: a time read before it could precede the ready time
            // of an item another thread adds while this one waits for the lock, and the item's
            // queue duration would come out negative (which Micrometer drops).
            long now = ticker.read();
            while (true) {
                promoteDue(now);
                QueueEntry<T> entry = buckets.poll(now);
                if (entry != null) {
                    handOut(entry, now);
                    return Optional.of(new Prioritized<>(entry.item, entry.priority));
                }
                if (shuttingDown) {
                    return Optional.empty();
                }
                awaitReadyOrDue(now);
                now = ticker.read();
            }
        } finally {
            // The timer role is free and delayed items remain: hand it to another waiting get.
            if (timerThread == null && !delayed.isEmpty()) {
                readyOrEarlier.signal();
            }
            lock.unlock();
        }
    }

    /**
     * Leader-follower wait, as in {@link java.util.concurrent.DelayQueue}: one waiting get (the
     * timer thread of the moment) sleeps until the earliest delayed item is due; the others sleep
     * until signalled, so a due item wakes one thread instead of every idle worker.
     */
    private void awaitReadyOrDue(long now) throws InterruptedException {
        if (delayed.isEmpty() || timerThread != null) {
            readyOrEarlier.await();
            return;
        }
        Thread current = Thread.currentThread();
        timerThread = current;
        try {
            // Not due yet, so readyAt > now: a negative difference can only be an overflow.
            long untilDue = delayed.first().readyAt - now;
            readyOrEarlier.awaitNanos(untilDue < 0 ? Long.MAX_VALUE : untilDue);
        } finally {
            if (timerThread == current) {
                timerThread = null;
            }
        }
    }

    @Override
    public void done(T item) {
        long now = listener == WorkQueueListener.NOOP ? 0 : ticker.read();
        lock.lock();
        try {
            // Usually nothing re-added the item meanwhile and its entry goes: remove first, so
            // that the common case costs one hash lookup, and put it back in the rare other case.
            QueueEntry<T> entry = entries.remove(item);
            if (entry == null) {
                return;
            }
            if (!entry.processing) {
                entries.put(item, entry);
                return;
            }
            entry.processing = false;
            processing.unlink(entry);
            if (listener != WorkQueueListener.NOOP) {
                listener.done(now - entry.processingSince);
            }
            if (!entry.finished()) {
                entries.put(item, entry);
            }
            if (entry.pending == QueueEntry.Pending.BLOCKED) {
                buckets.unblock(entry);
                readyOrEarlier.signal();
            }
            if (processing.size == 0) {
                processingEmpty.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int len() {
        lock.lock();
        try {
            promoteDue(ticker.read());
            return buckets.ready();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutDown() {
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            shuttingDown = true;
            // Delayed items will never be handed out: drop them rather than keep them reachable.
            for (QueueEntry<T> entry : delayed) {
                entry.pending = QueueEntry.Pending.NONE;
                if (entry.finished()) {
                    entries.remove(entry.item);
                }
            }
            delayed.clear();
            readyOrEarlier.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
        shutDown();
        long remaining = Durations.saturatedNanos(timeout);
        lock.lock();
        try {
            while (processing.size > 0) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = processingEmpty.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isShuttingDown() {
        lock.lock();
        try {
            return shuttingDown;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public WorkQueueStats stats() {
        lock.lock();
        try {
            long now = ticker.read();
            promoteDue(now);
            long unfinished = 0;
            long longest = 0;
            for (QueueEntry<T> entry = processing.head; entry != null; entry = entry.next) {
                long held = Math.max(0, now - entry.processingSince);
                unfinished = Durations.saturatedAdd(unfinished, held);
                longest = Math.max(longest, held);
            }
            return new WorkQueueStats(buckets.depth(), buckets.depthByPriority(), delayed.size(),
                    processing.size, unfinished / 1e9, longest / 1e9);
        } finally {
            lock.unlock();
        }
    }

    /** Where {@code item} stands right now: absent, waiting for a delay, queued, or held by a worker. */
    public ItemState state(T item) {
        lock.lock();
        try {
            promoteDue(ticker.read()); // a delayed item whose time has come is queued, as len() and stats() see it
            QueueEntry<T> entry = entries.get(item);
            if (entry == null) {
                return ItemState.ABSENT;
            }
            if (entry.processing) {
                return ItemState.PROCESSING;
            }
            return entry.pending == QueueEntry.Pending.WAITING ? ItemState.WAITING : ItemState.QUEUED;
        } finally {
            lock.unlock();
        }
    }

    /** How many items the queue keeps an entry for; 0 once idle, or something leaks. */
    int trackedItems() {
        lock.lock();
        try {
            return entries.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "PriorityWorkQueue[" + name + "]";
    }

    /** Adds or merges a pending entry under the lock: highest priority and earliest ready time win. */
    private void enqueue(T item, int priority, long delayNanos, boolean retried) {
        Objects.requireNonNull(item, "item");
        long now = ticker.read();
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            if (retried) {
                listener.retried();
            }
            promoteDue(now);
            long readyAt = delayNanos <= 0 ? now : Durations.saturatedAdd(now, delayNanos);
            QueueEntry<T> entry = entries.computeIfAbsent(item, QueueEntry::new);
            if (entry.pending == QueueEntry.Pending.NONE) {
                entry.priority = priority;
                entry.readyAt = readyAt;
                readyOrDelay(entry, now);
            } else {
                merge(entry, priority, readyAt, now);
            }
        } finally {
            lock.unlock();
        }
    }

    private void merge(QueueEntry<T> entry, int priority, long readyAt, long now) {
        switch (entry.pending) {
            case WAITING -> {
                entry.priority = Math.max(entry.priority, priority);
                if (readyAt < entry.readyAt) {
                    delayed.remove(entry);
                    entry.readyAt = readyAt;
                    readyOrDelay(entry, now);
                }
            }
            case READY -> {
                if (priority > entry.priority) {
                    buckets.raise(entry, priority);
                }
            }
            case BLOCKED -> {
                if (priority > entry.priority) {
                    buckets.raiseBlocked(entry, priority);
                }
            }
            case NONE -> throw new IllegalStateException("merge into an entry that is not pending: " + entry);
        }
    }

    private void readyOrDelay(QueueEntry<T> entry, long now) {
        if (entry.readyAt <= now) {
            becomeReady(entry, now);
        } else {
            delay(entry);
        }
    }

    private void delay(QueueEntry<T> entry) {
        entry.pending = QueueEntry.Pending.WAITING;
        entry.sequence = nextSequence++;
        delayed.add(entry);
        if (delayed.first() == entry) {
            // The timer get sleeps until a later ready time: make one get take over the new one.
            timerThread = null;
            readyOrEarlier.signal();
        }
    }

    /** Moves every delayed entry whose ready time has come to the ready buckets. */
    private void promoteDue(long now) {
        while (!delayed.isEmpty() && delayed.first().readyAt <= now) {
            QueueEntry<T> entry = delayed.pollFirst();
            becomeReady(entry, entry.readyAt);
        }
    }

    private void becomeReady(QueueEntry<T> entry, long readySince) {
        entry.readySince = readySince;
        listener.added(entry.priority);
        if (entry.processing) {
            buckets.block(entry);
        } else {
            buckets.append(entry);
            readyOrEarlier.signal();
        }
    }

    private void handOut(QueueEntry<T> entry, long now) {
        entry.processing = true;
        entry.processingSince = now;
        processing.append(entry);
        listener.dequeued(now - entry.readySince);
    }

    /**
     * Configures a {@link PriorityWorkQueue}. Not thread-safe; build once.
     */
    public static final class Builder<T> {
        private final String name;
        private RateLimiter<T> rateLimiter = RateLimiter.defaultControllerRateLimiter();
        private WorkQueueListener listener = WorkQueueListener.NOOP;
        private Ticker ticker = Ticker.system();
        private Duration starvationThreshold = DEFAULT_STARVATION_THRESHOLD;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** The limiter behind {@link WorkQueue#addRateLimited}; default: client-go's controller limiter. */
        public Builder<T> rateLimiter(RateLimiter<T> rateLimiter) {
            this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
            return this;
        }

        public Builder<T> listener(WorkQueueListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** The clock for delays, latencies and starvation; tests pass a manual one. */
        public Builder<T> ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /** How long a lower-priority item may wait while higher ones are served; must be positive. */
        public Builder<T> starvationThreshold(Duration threshold) {
            Objects.requireNonNull(threshold, "threshold");
            if (threshold.isNegative() || threshold.isZero()) {
                throw new IllegalArgumentException("starvation threshold must be positive, was " + threshold);
            }
            this.starvationThreshold = threshold;
            return this;
        }

        public PriorityWorkQueue<T> build() {
            return new PriorityWorkQueue<>(this);
        }
    }
}
