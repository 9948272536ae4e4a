package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which events reach the queue: the generation-aware filter, namespaces and label selectors.
 *
 * <p>Negative cases use ordering as the barrier instead of waiting: one informer delivers events
 * in order and one worker takes keys FIFO, so once a later object has been reconciled, an earlier
 * event that had been enqueued would have been reconciled first.
 */
class EventFilteringTest extends MockClusterTestSupport {


    @Test
    void statusOnlyUpdatesAreSkippedWhenGenerationAware() {
        RecordingReconciler reconciler = new RecordingReconciler();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();
        createAndAwait(reconciler, "a", "b");

        writeStatus("a", "updated");
        touchLabel("b");

        eventually().until(() -> reconciler.count("ns/b") == 2);
        assertThat(reconciler.count("ns/a")).isEqualTo(1);
    }

    @Test
    void statusOnlyUpdatesAreReconciledWhenNotGenerationAware() {
        RecordingReconciler reconciler = new RecordingReconciler();
        manager.register(ControllerConfig.builder("widget", Widget.class).generationAware(false).build(), reconciler);
        manager.start();
        createAndAwait(reconciler, "a");

        writeStatus("a", "updated");

        eventually().until(() -> reconciler.count("ns/a") == 2);
    }

    @Test
    void resyncsReconcileEveryObjectAgainEvenWhenGenerationAware() {
        RecordingReconciler reconciler = new RecordingReconciler();
        // fabric8's shortest resync period is one second
        manager.register(ControllerConfig.builder("widget", Widget.class).resyncPeriod(Duration.ofSeconds(1)).build(),
                reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> reconciler.count("ns/a") >= 2);
    }

    @Test
    void onlyTheConfiguredNamespacesAreWatched() {
        client.resource(Widget.named("other", "x")).create();
        client.resource(Widget.named("ns", "a")).create();
        RecordingReconciler reconciler = new RecordingReconciler();
        Controller<Widget> controller = manager.register(
                ControllerConfig.builder("widget", Widget.class).namespaces(List.of("ns", "second")).build(),
                reconciler);
        manager.start();

        eventually().until(() -> reconciler.count("ns/a") == 1 && controller.queueStats().idle());

        assertThat(reconciler.count("other/x")).isZero();
        assertThat(controller.primaryCache().list()).extracting(w -> w.getMetadata().getName()).containsExactly("a");
        // the lists and watches; the test's own POSTs go to "other" too
        assertThat(cluster.requests(r -> r.getMethod().equals("GET") && r.getPath().contains("widgets")))
                .allSatisfy(r -> assertThat(r.getPath())
                        .matches("/apis/kubeloop.dev/v1/namespaces/(ns|second)/widgets.*"));
        assertThat(cluster.watches("/widgets")).hasSize(2);
    }

    @Test
    void onlyObjectsMatchingTheLabelSelectorAreWatched() {
        RecordingReconciler reconciler = new RecordingReconciler();
        manager.register(ControllerConfig.builder("widget", Widget.class).labelSelector("tier=web").build(),
                reconciler);
        manager.start();

        client.resource(Widget.named("ns", "unlabelled")).create();
        client.resource(Widget.named("ns", "other-tier").withLabel("tier", "db")).create();
        client.resource(Widget.named("ns", "web").withLabel("tier", "web")).create();

        eventually().until(() -> reconciler.count("ns/web") == 1);
        assertThat(reconciler.calls()).extracting(RecordingReconciler.Call::key).containsExactly("ns/web");
        assertThat(cluster.watches("/widgets")).singleElement()
                .satisfies(r -> assertThat(r.getPath()).contains("labelSelector=tier%3Dweb"));
    }

    private void createAndAwait(RecordingReconciler reconciler, String... names) {
        for (String name : names) {
            client.resource(Widget.named("ns", name)).create();
        }
        for (String name : names) {
            eventually().until(() -> reconciler.count("ns/" + name) == 1);
        }
    }

    private void writeStatus(String name, String message) {
        Widget widget = client.resources(Widget.class).inNamespace("ns").withName(name).get();
        widget.setStatus(new Widget.Status());
        widget.getStatus().setMessage(message);
        client.resource(widget).updateStatus();
    }

    private void touchLabel(String name) {
        client.resources(Widget.class).inNamespace("ns").withName(name).edit(widget -> {
            widget.getMetadata().getLabels().put("touched", "yes");
            return widget;
        });
    }
}
