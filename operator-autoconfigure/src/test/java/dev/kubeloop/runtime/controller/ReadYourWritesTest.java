package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.Cleaner;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.ApiError;
import dev.kubeloop.testing.ApiFaults.Fault;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Read-your-writes: a reconcile never starts on a cache older than what the previous reconcile of
 * its key wrote. The informer's cache is frozen for the test (its list and watch requests fail,
 * its watch is cut), so that the only way a reconcile can see the previous one's write is the
 * tracker; with read-your-writes off, the same run reads the stale cache.
 */
class ReadYourWritesTest extends MockClusterTestSupport {

    /** The informer's list and watch of Widgets in all namespaces. */
    private static final String WIDGET_LIST_AND_WATCH = "/apis/kubeloop\\.dev/v1/widgets";

    @Test
    void theNextReconcileReadsThePreviousOnesStatusWriteWhileTheCacheLagsBehind() throws Exception {
        Steps steps = new Steps();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                steps);
        Fault frozen = startAndFreezeDuringTheFirstReconcile(steps.firstStarted, steps.release);

        eventually().until(() -> steps.seen.size() == 3);
        assertThat(steps.seen).as("status.message each reconcile started with").containsExactly("none", "1", "2");
        assertThat(controller.count(ReconcileOutcome.CONFLICT)).isZero();
        ControllerStatus.Writes writes = controller.status().writes();
        assertThat(writes.staleReadsAvoided()).isGreaterThanOrEqualTo(2);
        assertThat(writes.staleReadsNotAvoided()).isZero();
        assertThat(writes.pending()).isEqualTo(1);
        assertThat(controller.cachedResourceVersion(ObjectKey.of("ns", "a"))).as("the cache lags behind")
                .isNotEqualTo(Optional.of(widget("a").getMetadata().getResourceVersion()));

        frozen.off();

        eventually().until(() -> controller.status().writes().pending() == 0);
        assertThat(controller.status().writes().cacheCatchUps()).isPositive();
        assertThat(controller.status().writes().maxCacheLag()).isPositive();
    }

    @Test
    void withReadYourWritesOffTheSameReconcilesReadTheStaleCache() throws Exception {
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5)).readYourWrites(false)
                .build();
        Steps steps = new Steps();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                steps);
        Fault frozen = startAndFreezeDuringTheFirstReconcile(steps.firstStarted, steps.release);

        eventually().until(() -> steps.seen.size() >= 2);
        assertThat(steps.seen.get(1)).as("the second reconcile's status.message").isEqualTo("none");
        assertThat(controller.status().writes().staleReadsNotAvoided()).isPositive();
        assertThat(controller.status().writes().staleReadsAvoided()).isZero();
        frozen.off();
    }

    /**
     * Adding the finalizer changes the object: the next reconcile must see the finalizer and the
     * status written after it, not the version before them (which made 3 of the 7 reconciles of a
     * fresh demo conflict, and would add the finalizer a second time).
     */
    @Test
    void theFinalizerWriteAndTheStatusAfterItFeedTheNextReconcile() throws Exception {
        CleanerWritingStatus reconciler = new CleanerWritingStatus();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                reconciler);
        Fault frozen = startAndFreezeDuringTheFirstReconcile(reconciler.firstStarted, reconciler.release);
        // the finalizer's update event may have reached the cache before the freeze and queued one more
        eventually().until(() -> controller.queueStats().idle() && controller.count(ReconcileOutcome.SUCCESS)
                == reconciler.seen.size());
        int before = reconciler.seen.size();

        controller.enqueue(ObjectKey.of("ns", "a"), 0);

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == before + 1);
        assertThat(reconciler.seen.get(before))
                .isEqualTo("finalizers=[widget.kubeloop.dev/finalizer] status=reconciled " + before);
        assertThat(controller.count(ReconcileOutcome.CONFLICT)).isZero();
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.FINALIZER, 1L)
                .containsEntry(WriteOperation.UPDATE_STATUS, (long) before + 1);
        frozen.off();
    }

    private Widget widget(String name) {
        return client.resources(Widget.class).inNamespace("ns").withName(name).get();
    }

    /**
     * The finalizer, an owned object and the status, written by one reconcile, come back as
     * informer events; they are echoes of the reconcile's own writes and queue nothing. A change by
     * someone else to the same object does.
     */
    @Test
    void aReconcilesOwnWritesDoNotReconcileAgainButSomeoneElsesChangesDo() {
        CountingCleaner reconciler = new CountingCleaner();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(ConfigMap.class)).build(), reconciler);
        manager.start();
        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> client.configMaps().inNamespace("ns").withName("a-config").get() != null
                && controller.status().writes().pending() == 0 && controller.queueStats().idle());
        assertThat(reconciler.reconciles).as("reconciles of one created Widget").hasValue(1);
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.FINALIZER, 1L)
                .containsEntry(WriteOperation.APPLY, 1L).containsEntry(WriteOperation.APPLY_STATUS, 1L);

        client.configMaps().inNamespace("ns").withName("a-config").edit(configMap -> {
            configMap.getData().put("color", "red");
            return configMap;
        });

        eventually().until(() -> "blue".equals(client.configMaps().inNamespace("ns").withName("a-config").get()
                .getData().get("color")) && controller.queueStats().idle());
        assertThat(reconciler.reconciles).as("reconciled again for someone else's change").hasValueGreaterThan(1);
        assertThat(controller.status().writes().sent()).as("the repair").containsEntry(WriteOperation.APPLY, 2L);
    }

    /**
     * Starts the manager, creates Widget ns/a, and freezes the cache while its first reconcile waits
     * ({@code firstStarted} counted down by it, {@code release} awaited by it); then releases it.
     */
    private Fault startAndFreezeDuringTheFirstReconcile(CountDownLatch firstStarted, CountDownLatch release)
            throws InterruptedException {
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        assertThat(firstStarted.await(30, TimeUnit.SECONDS)).isTrue();
        Fault frozen = freezeWidgetCache();
        release.countDown();
        return frozen;
    }

    /** Fails the informer's list and watch requests and cuts its open watch: the cache stays as it is. */
    private Fault freezeWidgetCache() {
        Fault fault = cluster.faults().on("GET", WIDGET_LIST_AND_WATCH).answer(ApiError.internalError());
        cluster.cutWatchesOnceOpen(WIDGET_LIST_AND_WATCH, false);
        return fault;
    }

    /**
     * Reconcile 1 waits for the test, writes status.message "1" and asks to be requeued; reconcile
     * 2 writes "2" on top of what it read and asks again; reconcile 3 only records. Each records the
     * message it started with. updateStatus is locked on the resourceVersion it read: a stale read
     * would be a 409.
     */
    private static final class Steps implements ResourceReconciler<Widget> {
        final List<String> seen = new CopyOnWriteArrayList<>();
        final CountDownLatch firstStarted = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Result reconcile(Widget widget, ReconcileContext<Widget> context) throws Exception {
            String message = widget.getStatus() == null || widget.getStatus().getMessage() == null ? "none"
                    : widget.getStatus().getMessage();
            seen.add(message);
            if (seen.size() == 1) {
                firstStarted.countDown();
                release.await();
            }
            if (seen.size() >= 3) {
                return Result.done();
            }
            widget.setStatus(new Widget.Status());
            widget.getStatus().setMessage(String.valueOf(seen.size()));
            context.updateStatus(widget);
            return Result.requeue();
        }
    }

    /** Applies an owned ConfigMap and the status; counts its reconciles. */
    private static final class CountingCleaner implements ResourceReconciler<Widget>, Cleaner<Widget> {
        final AtomicInteger reconciles = new AtomicInteger();

        @Override
        public Result reconcile(Widget widget, ReconcileContext<Widget> context) {
            reconciles.incrementAndGet();
            context.apply(new ConfigMapBuilder().withNewMetadata().withName("a-config").endMetadata()
                    .addToData("color", widget.getSpec().getColor()).build());
            widget.setStatus(new Widget.Status());
            widget.getStatus().setMessage("applied");
            context.applyStatus(widget);
            return Result.done();
        }

        @Override
        public Result cleanup(Widget widget, ReconcileContext<Widget> context) {
            return Result.done();
        }
    }

    /** Records the finalizers and status.message each reconcile starts with, and writes the status. */
    private static final class CleanerWritingStatus implements ResourceReconciler<Widget>, Cleaner<Widget> {
        final List<String> seen = new CopyOnWriteArrayList<>();
        final CountDownLatch firstStarted = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Result reconcile(Widget widget, ReconcileContext<Widget> context) throws Exception {
            seen.add("finalizers=" + widget.getMetadata().getFinalizers() + " status="
                    + (widget.getStatus() == null ? "none" : widget.getStatus().getMessage()));
            if (seen.size() == 1) {
                firstStarted.countDown();
                release.await();
            }
            widget.setStatus(new Widget.Status());
            widget.getStatus().setMessage("reconciled " + seen.size());
            context.updateStatus(widget);
            return Result.done();
        }

        @Override
        public Result cleanup(Widget widget, ReconcileContext<Widget> context) {
            return Result.done();
        }
    }
}
