package dev.kubeloop.benchmarks.compare.scenario;

import dev.kubeloop.benchmarks.compare.common.WallClock;
import dev.kubeloop.benchmarks.compare.model.BenchResource;
import dev.kubeloop.benchmarks.compare.server.ServerSession;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load driver: changes objects' specs through the API server, from the launcher, so the
 * contender's JVM pays only for noticing and reconciling. Every change is a JSON merge patch of
 * {@code spec.value} (a new value, so the generation goes up by one) and {@code spec.stampNanos},
 * the wall-clock time just before the request is sent.
 */
final class SpecUpdater implements AutoCloseable {

    private static final int WRITERS = 4;

    private final ServerSession session;
    private final AtomicLong nextValue = new AtomicLong(1);
    private final AtomicInteger failures = new AtomicInteger();
    private final ExecutorService writers;

    SpecUpdater(ServerSession session) {
        this.session = session;
        AtomicInteger threadNumber = new AtomicInteger();
        this.writers = Executors.newFixedThreadPool(WRITERS,
                task -> new Thread(task, "spec-writer-" + threadNumber.incrementAndGet()));
    }

    /** Changes each named object once, {@value #WRITERS} requests at a time; returns once all are accepted. */
    void burst(List<String> names, Duration timeout) throws Exception {
        List<Future<?>> updates = new ArrayList<>(names.size());
        for (String name : names) {
            updates.add(writers.submit(() -> update(name)));
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Future<?> update : updates) {
            update.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Makes changes number {@code first} to {@code first + total - 1} of a round robin through
     * {@code names} (change i goes to {@code names[i % size]}), at {@code perSecond}, from a
     * fixed-rate schedule (open loop: a slow request does not delay the next one, up to
     * {@value #WRITERS} in flight); returns once all are accepted.
     */
    void atRate(List<String> names, int first, int total, int perSecond, Duration timeout)
            throws InterruptedException {
        CountDownLatch accepted = new CountDownLatch(total);
        AtomicInteger issued = new AtomicInteger();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(
                task -> new Thread(task, "spec-rate-ticker"));
        try {
            ScheduledFuture<?> ticks = ticker.scheduleAtFixedRate(() -> {
                int index = issued.getAndIncrement();
                if (index < total) {
                    writers.execute(() -> {
                        try {
                            update(names.get((first + index) % names.size()));
                        } finally {
                            accepted.countDown();
                        }
                    });
                }
            }, 0, TimeUnit.SECONDS.toNanos(1) / perSecond, TimeUnit.NANOSECONDS);
            boolean done = accepted.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
            ticks.cancel(false);
            if (!done) {
                throw new IllegalStateException("only " + (total - accepted.getCount()) + " of " + total
                        + " updates accepted within " + timeout);
            }
        } finally {
            ticker.shutdownNow();
        }
    }

    /** Updates that failed (logged); a run with failures is not comparable. */
    int failures() {
        return failures.get();
    }

    private void update(String name) {
        BenchResource target = new BenchResource();
        target.setMetadata(new ObjectMetaBuilder().withNamespace(session.namespace()).withName(name).build());
        String patch = "{\"spec\":{\"value\":" + nextValue.getAndIncrement() + ",\"stampNanos\":" + WallClock.nowNanos()
                + "}}";
        try {
            session.client().resources(BenchResource.class).inNamespace(session.namespace()).resource(target)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        } catch (RuntimeException e) {
            failures.incrementAndGet();
            System.err.println("spec update of " + name + " failed: " + e);
        }
    }

    @Override
    public void close() {
        writers.shutdownNow();
        try {
            writers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing anyway; the caller sees the interrupt
        }
    }
}
