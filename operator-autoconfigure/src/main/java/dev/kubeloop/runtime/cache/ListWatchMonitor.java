package dev.kubeloop.runtime.cache;

import dev.kubeloop.runtime.NamedThreadFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says when an informer's list/watch starts failing and when it recovers: every
 * {@code interval} it samples each running informer ({@link InformerEntry#checkListWatch}); one
 * WARN line when one has not been watching for {@code failingAfter} (an API server outage, a
 * deleted CRD, revoked RBAC), with its type, scope and the reason, and one INFO line when it
 * watches again. Nothing in between: fabric8 retries by itself, and a line per retry would bury
 * the two that matter. The reason is what the API server answers a list in the informer's scope
 * at that moment ({@link ListWatchProbe}).
 *
 * <p>{@code failingAfter} is well above the gap of fabric8's routine reconnects (its watches are
 * closed every 5 to 10 minutes and reopened after 1 s), so a healthy informer never counts as
 * failing.
 *
 * <p>State ownership: one scheduler thread ({@code kubeloop-list-watch-monitor}) does all the
 * work; the entries' health is written only by it. Started and closed by the registry.
 */
final class ListWatchMonitor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ListWatchMonitor.class);

    private final Supplier<List<InformerEntry<?>>> entries;
    private final Duration failingAfter;
    private final ListWatchProbe probe;
    private final ScheduledThreadPoolExecutor scheduler;

    ListWatchMonitor(Supplier<List<InformerEntry<?>>> entries, Duration failingAfter, ListWatchProbe probe) {
        this.entries = entries;
        this.failingAfter = failingAfter;
        this.probe = probe;
        this.scheduler = new ScheduledThreadPoolExecutor(1,
                runnable -> NamedThreadFactory.single("kubeloop-list-watch-monitor", runnable));
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    void start(Duration interval) {
        scheduler.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** One round over every informer. */
    void check() {
        long now = System.nanoTime();
        for (InformerEntry<?> entry : entries.get()) {
            try {
                check(entry, now);
            } catch (RuntimeException e) {
                log.warn("Cannot check the list/watch of {}: {}", entry.key().describe(), e.toString());
            }
        }
    }

    private void check(InformerEntry<?> entry, long now) {
        switch (entry.checkListWatch(now, failingAfter, () -> probe.reason(entry.key()))) {
            case STARTED_FAILING -> {
                InformerStatus status = entry.status();
                log.warn("List/watch failing, the cache no longer follows the API server until it recovers: "
                        + "informer={} reason={}{}", status.describe(), status.listWatchFailure(),
                        status.listWatchFailure().startsWith("HTTP 404")
                                ? " (is the resource still served? a deleted CustomResourceDefinition looks so)"
                                : "");
            }
            case RECOVERED -> log.info("List/watch recovered after {} s, the cache follows the API server again: "
                    + "informer={}", entry.listWatchFailedFor().toMillis() / 1000.0, entry.key().describe());
            case NONE -> {
            }
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        probe.close();
    }
}
