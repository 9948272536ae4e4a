package dev.kubeloop.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Load for reliability tests: changes the spec of randomly chosen Widgets (a JSON merge patch of
 * {@code spec.size}, which bumps the generation) at a steady rate, from one thread named
 * {@code steady-updates}, and records when each change was sent and the generation it made, so a
 * test can tell which reconcile saw it. Stops after {@code total} changes or at {@link #close()}.
 *
 * <p>Thread-safety: the updates are made and recorded by the one update thread; the accessors copy
 * under this object's lock and may be called from any thread.
 */
public final class SteadyUpdates implements AutoCloseable {

    /** One change: the key ({@code namespace/name}), the generation it made, when it was sent (System.nanoTime()). */
    public record Update(String key, long generation, long sentNanos) {
    }

    private final KubernetesClient client;
    private final String namespace;
    private final List<String> names;
    private final int total;
    private final Random random;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "steady-updates");
        thread.setDaemon(true);
        return thread;
    });
    private final CountDownLatch done = new CountDownLatch(1);
    // guarded by this
    private final List<Update> updates = new ArrayList<>();
    private final List<Throwable> failures = new ArrayList<>();
    private int sent; // update thread only

    private SteadyUpdates(KubernetesClient client, String namespace, List<String> names, int total, long seed) {
        this.client = client;
        this.namespace = namespace;
        this.names = List.copyOf(names);
        this.total = total;
        this.random = new Random(seed);
    }

    /** Starts {@code total} changes, {@code perSecond} a second, to Widgets chosen (seeded) among {@code names}. */
    public static SteadyUpdates start(KubernetesClient client, String namespace, List<String> names, int perSecond,
            int total, long seed) {
        SteadyUpdates load = new SteadyUpdates(client, namespace, names, total, seed);
        load.executor.scheduleAtFixedRate(load::updateOne, 0, 1_000_000L / perSecond, TimeUnit.MICROSECONDS);
        return load;
    }

    private void updateOne() {
        if (sent >= total) {
            return; // done; the executor is shut down at close
        }
        sent++;
        String name = names.get(random.nextInt(names.size()));
        long sentNanos = System.nanoTime();
        try {
            Widget changed = client.resources(Widget.class).inNamespace(namespace).withName(name)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"size\":" + sent + "}}");
            synchronized (this) {
                updates.add(new Update(namespace + "/" + name, changed.getMetadata().getGeneration(), sentNanos));
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                failures.add(e);
            }
        }
        if (sent == total) {
            done.countDown();
        }
    }

    /** Waits until every change was sent; false on timeout. */
    public boolean await(Duration timeout) throws InterruptedException {
        return done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public synchronized List<Update> updates() {
        return List.copyOf(updates);
    }

    /** Changes the API server refused or that failed on the way. */
    public synchronized List<Throwable> failures() {
        return List.copyOf(failures);
    }

    /** The last generation each changed key was given. */
    public synchronized Map<String, Long> latestGenerations() {
        Map<String, Long> latest = new LinkedHashMap<>();
        for (Update update : updates) {
            latest.merge(update.key(), update.generation(), Math::max);
        }
        return latest;
    }

    /** From the first change sent to the last. */
    public synchronized Duration elapsed() {
        return updates.size() < 2 ? Duration.ZERO
                : Duration.ofNanos(updates.get(updates.size() - 1).sentNanos() - updates.get(0).sentNanos());
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the test is being stopped: let it see the interrupt
        }
    }
}
