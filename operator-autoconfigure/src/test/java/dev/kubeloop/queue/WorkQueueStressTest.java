package dev.kubeloop.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 4 producers, 8 consumers, 1,000 keys, 200,000 random adds (plain, prioritised and delayed).
 * Pins the two properties a controller relies on: a key is never held by two workers at once,
 * and every add is followed by a processing that starts after it (no lost wake-up). All
 * assertions are on counts, not on timing; waits have deadlines.
 */
class WorkQueueStressTest {

    private static final int KEYS = 1_000;
    private static final int PRODUCERS = 4;
    private static final int CONSUMERS = 8;
    private static final int ADDS = 200_000;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final PriorityWorkQueue<Integer> queue = PriorityWorkQueue.create("stress");
    private final ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS, named("producer"));
    private final ExecutorService consumers = Executors.newFixedThreadPool(CONSUMERS, named("consumer"));

    /** 1 while a consumer holds the key. */
    private final AtomicIntegerArray held = new AtomicIntegerArray(KEYS);
    /** The stamp of each key's latest add, written before the add. */
    private final AtomicLongArray lastAdd = new AtomicLongArray(KEYS);
    /** The highest add stamp any processing of the key has observed when it started. */
    private final AtomicLongArray lastSeen = new AtomicLongArray(KEYS);
    private final AtomicLong stamps = new AtomicLong();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final AtomicInteger processed = new AtomicInteger();

    @AfterEach
    void stop() {
        queue.shutDown();
        producers.shutdownNow();
        consumers.shutdownNow();
    }

    @Test
    void keysAreNeverHeldTwiceAndNoAddIsLost() throws Exception {
        List<Future<?>> consuming = startConsumers();
        List<Future<?>> producing = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            long seed = 42 + p;
            producing.add(producers.submit(() -> produce(new SplittableRandom(seed), ADDS / PRODUCERS)));
        }
        for (Future<?> producer : producing) {
            producer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        }
        awaitCondition("queue idle, stats " + queue.stats(), () -> queue.stats().idle());

        assertThat(queue.shutDownWithDrain(DEADLINE)).as("drained").isTrue();
        for (Future<?> consumer : consuming) {
            consumer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        }

        assertThat(overlaps.get()).as("times a key was handed to a second consumer").isZero();
        List<Integer> lost = new ArrayList<>();
        for (int key = 0; key < KEYS; key++) {
            if (lastSeen.get(key) < lastAdd.get(key)) {
                lost.add(key);
            }
        }
        assertThat(lost).as("keys whose last add was never processed").isEmpty();
        assertThat(processed.get()).isBetween(KEYS, ADDS);
        assertThat(queue.trackedItems()).as("entries left behind").isZero();
    }

    @Test
    void drainUnderLoadTerminatesAndEveryConsumerStops() throws Exception {
        List<Future<?>> consuming = startConsumers();
        Future<?> producing = producers.submit(() -> produce(new SplittableRandom(7), ADDS / PRODUCERS));
        awaitCondition("some work processed", () -> processed.get() > 1_000);

        assertThat(queue.shutDownWithDrain(DEADLINE)).as("drained").isTrue();

        for (Future<?> consumer : consuming) {
            consumer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        }
        producing.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        assertThat(queue.stats().processing()).isZero();
        assertThat(overlaps.get()).isZero();
    }

    private void produce(SplittableRandom random, int adds) {
        int[] priorities = {WorkQueue.LOW_PRIORITY, WorkQueue.NORMAL_PRIORITY, 5};
        for (int i = 0; i < adds; i++) {
            int key = random.nextInt(KEYS);
            lastAdd.accumulateAndGet(key, stamps.incrementAndGet(), Math::max);
            if (random.nextInt(5) == 0) {
                queue.addAfter(key, Duration.ofNanos(random.nextLong(3_000_000)));
            } else {
                queue.add(key, priorities[random.nextInt(priorities.length)]);
            }
        }
    }

    private List<Future<?>> startConsumers() {
        List<Future<?>> consuming = new ArrayList<>();
        for (int c = 0; c < CONSUMERS; c++) {
            consuming.add(consumers.submit(() -> {
                consume();
                return null;
            }));
        }
        return consuming;
    }

    private void consume() throws InterruptedException {
        while (true) {
            Optional<Integer> next = queue.get();
            if (next.isEmpty()) {
                return;
            }
            int key = next.get();
            if (!held.compareAndSet(key, 0, 1)) {
                overlaps.incrementAndGet();
            }
            lastSeen.accumulateAndGet(key, lastAdd.get(key), Math::max);
            processed.incrementAndGet();
            if ((key & 7) == 0) {
                Thread.yield(); // let others run while a key is held
            }
            held.set(key, 0);
            queue.done(key);
        }
    }

    private static void awaitCondition(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + DEADLINE + " waiting for " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
        }
    }

    private static java.util.concurrent.ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
