package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.runtime.NamedThreadFactory;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Watch loss: 1,000 Widgets get 4,000 spec updates (10,000 on request, see {@link #UPDATES}; 4
 * writers, a random Widget each time) while every watch the mock API server holds is cut every
 * 2 s, every other cut (the first included) with a 410 Gone first. The informer has to watch
 * again by itself after a plain cut and list again after an expiring one; the reconciler writes
 * {@code status.observedGeneration = metadata.generation}. Whatever the cuts hid, every object on
 * the API server must end with its latest generation observed.
 *
 * <p>On the mock, a new watch starts with every stored object as ADDED (a real API server replays
 * the events after the requested resourceVersion, or answers 410 Gone when it no longer has them),
 * so after a plain cut the informer learns each object's latest state from that replay; after an
 * expiring cut, from its list. Either way a change made while no watch was open must still reach the
 * reconciler. Times are printed, not asserted.
 */
class WatchLossTest extends MockClusterTestSupport {

    private static final String NAMESPACE = "ns";
    private static final int OBJECTS = 1_000;
    private static final int WRITERS = 4;
    /**
     * The 10,000 updates: about 32 s on an otherwise idle 2-core machine (the mock serves
     * every request on one thread, scanning all stored objects each time, and every update is
     * followed by a status write). {@code -Dkubeloop.watch-loss.updates=N} changes the size.
     */
    private static final int UPDATES = Integer.getInteger("kubeloop.watch-loss.updates", 10_000) / WRITERS * WRITERS;
    private static final Duration CUT_EVERY = Duration.ofSeconds(2);
    private static final Duration CONVERGE_DEADLINE = Duration.ofSeconds(60);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ExecutorService writers = Executors.newFixedThreadPool(WRITERS,
            NamedThreadFactory.numbered("widget-writer-"));
    private final ScheduledExecutorService cutter = Executors.newSingleThreadScheduledExecutor(
            runnable -> NamedThreadFactory.single("watch-cutter", runnable));
    private final AtomicInteger cuts = new AtomicInteger();
    private final AtomicInteger watchesCut = new AtomicInteger();
    private final AtomicInteger expiringCuts = new AtomicInteger();

    @Override
    protected void beforeStop() {
        cutter.shutdownNow();
        writers.shutdownNow();
        registry.close();
    }

    @Test
    void noUpdateIsLostWhenWatchesAreCutEveryTwoSecondsUnderLoad() throws Exception {
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .observer(new KubeloopMetrics(registry)).build();
        AtomicInteger reconciles = new AtomicInteger();
        ResourceReconciler<Widget> reconciler = (widget, context) -> {
            reconciles.incrementAndGet();
            widget.setStatus(new Widget.Status());
            widget.getStatus().setObservedGeneration(widget.getMetadata().getGeneration());
            context.updateStatus(widget);
            return Result.done();
        };
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).workers(4)
                .build(), reconciler);
        createWidgets();
        manager.start();

        cutter.scheduleAtFixedRate(this::cutEveryWatch, CUT_EVERY.toMillis(), CUT_EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
        long updatesStarted = System.nanoTime();
        long cpuBefore = processCpuNanos();
        updateRandomWidgets();
        long lastUpdate = System.nanoTime();
        // on a shared machine the wall time says more about the neighbours than about the runtime
        long updateCpu = processCpuNanos() - cpuBefore;

        List<Widget> behind = awaitConverged();
        long converged = System.nanoTime();
        cutter.shutdownNow();
        assertThat(cutter.awaitTermination(10, TimeUnit.SECONDS)).as("cutter stopped").isTrue();

        List<Widget> stored = stored();
        long generationsAdded = stored.stream().mapToLong(widget -> widget.getMetadata().getGeneration() - 1).sum();
        double restarts = registry.get(KubeloopMetrics.INFORMER_WATCH_RESTARTS).functionCounter().count();
        int watchRequests = cluster.watches("/widgets").size();
        System.out.printf("[reliability] watch-loss: %d objects, %d updates by %d writers in %.1f s (test JVM CPU "
                + "%.1f s, mock server included), every watch cut every %d s (every other cut a 410 Gone): converged "
                + "%d/%d, lost %d, cuts %d (%d watches cut, %d with 410), watch requests %d, watch restarts (re-lists) "
                + "%.0f, reconciles %d (conflicts %d), converge %.1f s after the last update%n", OBJECTS, UPDATES,
                WRITERS, seconds(lastUpdate - updatesStarted), seconds(updateCpu), CUT_EVERY.toSeconds(),
                OBJECTS - behind.size(), OBJECTS,
                behind.size(), cuts.get(), watchesCut.get(), expiringCuts.get(), watchRequests, restarts,
                reconciles.get(), controller.count(ReconcileOutcome.CONFLICT),
                seconds(converged - lastUpdate));

        assertThat(behind).as("objects whose latest generation was never reconciled")
                .extracting(widget -> widget.getMetadata().getName()).isEmpty();
        assertThat(generationsAdded).as("every update changed its Widget's spec").isEqualTo(UPDATES);
        assertThat(cuts).as("cuts that hit a watch").hasPositiveValue();
        assertThat(restarts).as("the informer listed again after a 410 Gone").isPositive();
        assertThat(controller.status().broken()).isFalse();
    }

    private void createWidgets() throws Exception {
        List<Future<?>> creating = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int first = w;
            creating.add(writers.submit(() -> {
                for (int i = first; i < OBJECTS; i += WRITERS) {
                    client.resource(Widget.named(NAMESPACE, name(i))).create();
                }
            }));
        }
        for (Future<?> writer : creating) {
            writer.get(60, TimeUnit.SECONDS);
        }
    }

    /** Each update sets spec.size to a value never used before, so each one bumps the generation. */
    private void updateRandomWidgets() throws Exception {
        AtomicLong sizes = new AtomicLong();
        List<Future<?>> updating = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            SplittableRandom random = new SplittableRandom(100 + w);
            updating.add(writers.submit(() -> {
                for (int u = 0; u < UPDATES / WRITERS; u++) {
                    // an item with just a name: fabric8 sends the patch without reading the object first
                    client.resource(Widget.named(NAMESPACE, name(random.nextInt(OBJECTS))))
                            .patch(PatchContext.of(PatchType.JSON_MERGE),
                                    "{\"spec\":{\"size\":" + sizes.incrementAndGet() + "}}");
                }
            }));
        }
        for (Future<?> writer : updating) {
            writer.get(120, TimeUnit.SECONDS);
        }
    }

    /** Cuts every open watch; the first cut that hits one expires it, then every other. */
    private void cutEveryWatch() {
        boolean expire = cuts.get() % 2 == 0;
        int cut = cluster.cutWatches(expire);
        if (cut > 0) {
            cuts.incrementAndGet();
            watchesCut.addAndGet(cut);
            if (expire) {
                expiringCuts.incrementAndGet();
            }
        }
    }

    /** Waits for every object to be reconciled at its latest generation; returns those that never were. */
    private List<Widget> awaitConverged() {
        try {
            eventually().atMost(CONVERGE_DEADLINE).pollInterval(Duration.ofMillis(200))
                    .until(() -> behind(stored()).isEmpty());
        } catch (ConditionTimeoutException e) {
            // reported and asserted below, with the figures
        }
        return behind(stored());
    }

    /** The Widgets as the API server holds them (not the informer's cache). */
    private List<Widget> stored() {
        return client.resources(Widget.class).inNamespace(NAMESPACE).list().getItems();
    }

    private static List<Widget> behind(List<Widget> widgets) {
        return widgets.stream().filter(widget -> widget.getStatus() == null
                || !Objects.equals(widget.getStatus().getObservedGeneration(), widget.getMetadata().getGeneration()))
                .toList();
    }

    private static String name(int index) {
        return String.format("w-%04d", index);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
