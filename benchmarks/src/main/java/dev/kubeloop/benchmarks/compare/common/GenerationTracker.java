package dev.kubeloop.benchmarks.compare.common;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;
import java.util.function.Predicate;

/**
 * Remembers the highest generation observed per object name and the wall-clock time it was
 * observed, and lets callers wait until a number of names have reached a generation. The
 * launcher feeds it with status writes seen by the API server; the contender process feeds it
 * with the objects its handler saw (for the "bound" contender, which writes nothing).
 *
 * <p>Waiters registered before the events arrive get the exact time the target was reached;
 * a waiter registered later is answered from the recorded times. All methods are thread-safe;
 * one lock is plenty at a few ten thousand records per second.
 */
public final class GenerationTracker {

    private record Observed(long generation, long wallNanos) {
    }

    private final Map<String, Observed> observed = new HashMap<>();
    private final List<Target> targets = new ArrayList<>();

    /** Records that {@code name} was observed at {@code generation}; lower or equal generations are ignored. */
    public synchronized void record(String name, long generation, long wallNanos) {
        Observed previous = observed.get(name);
        long previousGeneration = previous == null ? 0 : previous.generation();
        if (generation <= previousGeneration) {
            return;
        }
        observed.put(name, new Observed(generation, wallNanos));
        for (Target target : targets) {
            target.offer(name, previousGeneration, generation, wallNanos);
        }
        targets.removeIf(Target::isReached);
    }

    /** A target reached once {@code count} names have been observed at {@code minGeneration} or later. */
    public Target expect(int count, long minGeneration) {
        return expect(count, minGeneration, name -> true);
    }

    /** A target reached once {@code name} has been observed at {@code minGeneration} or later. */
    public Target expectName(String name, long minGeneration) {
        return expect(1, minGeneration, name::equals);
    }

    private synchronized Target expect(int count, long minGeneration, Predicate<String> names) {
        Target target = new Target(count, minGeneration, names);
        List<Long> alreadyReached = new ArrayList<>();
        observed.forEach((name, seen) -> {
            if (names.test(name) && seen.generation() >= minGeneration) {
                alreadyReached.add(seen.wallNanos());
            }
        });
        alreadyReached.sort(null);
        for (long wallNanos : alreadyReached) {
            target.count(wallNanos);
        }
        if (!target.isReached()) {
            targets.add(target);
        }
        return target;
    }

    /** How many names have been observed at {@code minGeneration} or later. */
    public synchronized int count(long minGeneration) {
        int count = 0;
        for (Observed seen : observed.values()) {
            if (seen.generation() >= minGeneration) {
                count++;
            }
        }
        return count;
    }

    /** One condition somebody waits for. */
    public static final class Target {

        private final int count;
        private final long minGeneration;
        private final Predicate<String> names;
        /** Completes with the wall-clock time the last needed observation was made. */
        private final CompletableFuture<Long> reached = new CompletableFuture<>();
        // written under the tracker's lock only; volatile so a timed-out waiter can report progress
        private volatile int matched;

        private Target(int count, long minGeneration, Predicate<String> names) {
            this.count = count;
            this.minGeneration = minGeneration;
            this.names = names;
            if (count <= 0) {
                reached.complete(WallClock.nowNanos());
            }
        }

        private void offer(String name, long previousGeneration, long generation, long wallNanos) {
            if (previousGeneration < minGeneration && generation >= minGeneration && names.test(name)) {
                count(wallNanos);
            }
        }

        private void count(long wallNanos) {
            if (isReached()) {
                return;
            }
            matched = matched + 1;
            if (matched >= count) {
                reached.complete(wallNanos);
            }
        }

        public boolean isReached() {
            return reached.isDone();
        }

        /**
         * Calls {@code action} with the time the target was reached: now if it already was,
         * otherwise on the thread that records the last needed observation (keep it short).
         */
        public void whenReached(LongConsumer action) {
            reached.thenAccept(action::accept);
        }

        /**
         * Waits until the target is reached or the timeout elapses.
         *
         * @return the wall-clock time the last needed observation was made
         * @throws IllegalStateException on timeout, saying how far it got
         */
        public long await(Duration timeout) throws InterruptedException {
            try {
                return reached.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new IllegalStateException("timed out after " + timeout + " waiting for " + count
                        + " objects at generation >= " + minGeneration + " (got " + matched + ")");
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    }
}
