package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.NamedThreadFactory;
import dev.kubeloop.testing.Eventually;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.Widget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
import org.junit.jupiter.api.Test;

/**
 * Key exclusivity under load: a controller with 8 workers over 1,000 Widgets gets 100,000 events
 * (4 threads, a random key each, through {@link Controller#enqueue}, the path the actuator's
 * "reconcile now" takes, and the same queue add the informer's handlers make). What
 * {@code WorkQueueStressTest} pins on the bare queue, this pins through the controller's real
 * workers, runner and cache: a key is never reconciled by two workers at once, and every key's
 * last event is seen by a reconcile that started after it.
 *
 * <p>How: each event stamps its key from one global sequence before it is queued; each reconcile
 * notes, once its worker holds the key, the latest stamp of the key, and counts itself in a per-key
 * "held" counter that must never exceed 1. All assertions are on counts; waits have deadlines.
 */
class KeyExclusivityTest extends MockClusterTestSupport {

    private static final String NAMESPACE = "ns";
    private static final int KEYS = 1_000;
    private static final int EVENTS = 100_000;
    private static final int PRODUCERS = 4;
    private static final int WORKERS = 8;
    /** What a reconcile "does": long enough that the 8 workers overlap, short enough for a quick run. */
    private static final long WORK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** Creating 1,000 objects on the mock and reconciling each once takes a while on a loaded machine. */
    private static final Duration SETUP_DEADLINE = Duration.ofSeconds(60);

    private final ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS,
            NamedThreadFactory.numbered("event-producer-"));
    /** Reconciles holding each key right now: never more than 1. */
    private final AtomicIntegerArray held = new AtomicIntegerArray(KEYS);
    /** The stamp of each key's latest event, written before the event is queued. */
    private final AtomicLongArray lastEvent = new AtomicLongArray(KEYS);
    /** The latest event stamp a reconcile of the key found when it started. */
    private final AtomicLongArray lastSeen = new AtomicLongArray(KEYS);
    private final AtomicLong stamps = new AtomicLong();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger mostRunning = new AtomicInteger();
    private final AtomicInteger reconciles = new AtomicInteger();

    @Override
    protected void beforeStop() {
        producers.shutdownNow();
    }

    @Test
    void aKeyIsNeverReconciledByTwoWorkersAtOnceAndItsLastEventIsNeverLost() throws Exception {
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .workers(WORKERS).build(), this::reconcile);
        createWidgets();
        manager.start();
        // the initial list queues every key once (an initial add the informer hands over after the
        // workers started may queue a key once more)
        eventually().atMost(SETUP_DEADLINE).until(() -> reconciles.get() >= KEYS && controller.queueStats().idle());
        reconciles.set(0);
        mostRunning.set(0);

        long burstStarted = System.nanoTime();
        int refused = sendEvents(controller);
        long sent = System.nanoTime();
        eventually().until(() -> controller.queueStats().idle());
        long drained = System.nanoTime();

        List<Integer> unseen = new ArrayList<>();
        for (int key = 0; key < KEYS; key++) {
            if (lastSeen.get(key) != lastEvent.get(key)) {
                unseen.add(key);
            }
        }
        System.out.printf("[reliability] key-exclusivity: %d workers, %d keys, %d events from %d threads in %.1f s: "
                + "reconciles %d (%.2f per event), max concurrent workers %d, overlaps %d, keys whose last event no "
                + "reconcile saw %d, drained %.1f s after the last event%n", WORKERS, KEYS, EVENTS, PRODUCERS,
                (sent - burstStarted) / 1e9, reconciles.get(), (double) reconciles.get() / EVENTS, mostRunning.get(),
                overlaps.get(), unseen.size(), (drained - sent) / 1e9);

        assertThat(refused).as("events the controller refused").isZero();
        assertThat(overlaps).as("reconciles that started while another held the key").hasValue(0);
        assertThat(unseen).as("keys whose last event was not followed by a reconcile").isEmpty();
        assertThat(mostRunning.get()).as("workers reconciling at once").isBetween(2, WORKERS);
        assertThat(controller.count(ReconcileOutcome.ERROR)).isZero();
    }

    private Result reconcile(Widget widget, ReconcileContext<Widget> context) {
        int key = index(context.key());
        mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        if (held.getAndIncrement(key) != 0) {
            overlaps.incrementAndGet();
        }
        try {
            lastSeen.accumulateAndGet(key, lastEvent.get(key), Math::max);
            reconciles.incrementAndGet();
            LockSupport.parkNanos(WORK_NANOS);
            return Result.done();
        } finally {
            held.decrementAndGet(key);
            running.decrementAndGet();
        }
    }

    /** Sends the events; returns how many the controller refused to queue. */
    private int sendEvents(Controller<Widget> controller) throws Exception {
        AtomicInteger refused = new AtomicInteger();
        List<Future<?>> sending = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            SplittableRandom random = new SplittableRandom(7 + p);
            sending.add(producers.submit(() -> {
                for (int e = 0; e < EVENTS / PRODUCERS; e++) {
                    int key = random.nextInt(KEYS);
                    lastEvent.accumulateAndGet(key, stamps.incrementAndGet(), Math::max);
                    if (!controller.enqueue(ObjectKey.of(NAMESPACE, name(key)))) {
                        refused.incrementAndGet();
                    }
                }
            }));
        }
        for (Future<?> producer : sending) {
            producer.get(Eventually.DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
        }
        return refused.get();
    }

    private void createWidgets() throws Exception {
        List<Future<?>> creating = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int first = p;
            creating.add(producers.submit(() -> {
                for (int i = first; i < KEYS; i += PRODUCERS) {
                    client.resource(Widget.named(NAMESPACE, name(i))).create();
                }
            }));
        }
        for (Future<?> producer : creating) {
            producer.get(60, TimeUnit.SECONDS);
        }
    }

    private static String name(int index) {
        return String.format("w-%04d", index);
    }

    private static int index(ObjectKey key) {
        return Integer.parseInt(key.name().substring(2));
    }
}
