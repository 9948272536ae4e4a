package dev.kubeloop.sample.replica;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A steady stream of spec changes: every {@code 1/rate} seconds the next Website, round robin,
 * gets a new page. Runs on one thread named {@code spec-updates}; a failed change is counted and
 * the stream goes on. {@link #close()} stops it and waits for a change in progress.
 */
public final class SpecUpdates implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SpecUpdates.class);

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
            runnable -> new Thread(runnable, "spec-updates"));
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final long startNanos = System.nanoTime();
    private volatile long stopNanos;

    private SpecUpdates(Websites websites, List<String> names, int perSecond) {
        AtomicLong next = new AtomicLong();
        executor.scheduleAtFixedRate(() -> {
            long n = next.getAndIncrement();
            String name = names.get((int) (n % names.size()));
            try {
                websites.setHtml(name, "u" + n);
                done.incrementAndGet();
            } catch (RuntimeException e) {
                // a change the API server refused is not the operator's business; count it and go on
                failed.incrementAndGet();
                log.warn("Spec change {} of {} failed: {}", n, name, e.toString());
            }
        }, 0, 1_000_000 / perSecond, TimeUnit.MICROSECONDS);
    }

    public static SpecUpdates start(Websites websites, List<String> names, int perSecond) {
        return new SpecUpdates(websites, names, perSecond);
    }

    /** Changes the API server accepted so far. */
    public long done() {
        return done.get();
    }

    public long failed() {
        return failed.get();
    }

    /** Accepted changes per second, from the start until now or until {@link #close()}. */
    public double rate() {
        long end = stopNanos == 0 ? System.nanoTime() : stopNanos;
        return done.get() / (Duration.ofNanos(end - startNanos).toMillis() / 1000.0);
    }

    public Duration elapsed() {
        return Duration.ofNanos((stopNanos == 0 ? System.nanoTime() : stopNanos) - startNanos);
    }

    @Override
    public void close() {
        if (stopNanos != 0) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
        stopNanos = System.nanoTime();
    }
}
