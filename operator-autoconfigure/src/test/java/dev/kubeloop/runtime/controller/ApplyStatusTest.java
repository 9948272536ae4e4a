package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code context.applyStatus}: written once per change. Its lock on the version it was computed
 * from needs the real API server (the mock ignores a resourceVersion in an apply body): see
 * {@code ConcurrentWriteE2ETest} and {@code PausedReplicaE2ETest} in the sample.
 */
class ApplyStatusTest extends MockClusterTestSupport {

    /** What the first applyStatus returned. */
    private final AtomicReference<Widget> firstStored = new AtomicReference<>();

    @Test
    void aStatusIsWrittenWhenItChangesAndNotWhenItIsAlreadyCurrent() {
        Controller<Widget> controller = start(new AtomicBoolean());
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> "blue".equals(message("a")) && controller.queueStats().idle());
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.APPLY_STATUS, 1L);

        controller.enqueue(ObjectKey.of("ns", "a"), 0);
        eventually().until(() -> controller.status().writes().skipped().get(WriteOperation.APPLY_STATUS) == 1);

        recolor("a", "green");
        // the server has the status before the worker has counted its write: wait for the reconcile to end too
        eventually().until(() -> "green".equals(message("a")) && controller.queueStats().idle());
        assertThat(controller.status().writes().sent()).containsEntry(WriteOperation.APPLY_STATUS, 2L);
    }

    /**
     * Writes status.message = spec.color with the generation it describes; with
     * {@code changeSpecMeanwhile}, first changes the spec on the server, so the object in hand is
     * stale when the status goes out.
     */
    private Controller<Widget> start(AtomicBoolean changeSpecMeanwhile) {
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                new RecordingReconciler().behaving((widget, context) -> {
                    if (changeSpecMeanwhile.getAndSet(false)) {
                        client.resources(Widget.class).inNamespace("ns").withName("a").edit(current -> {
                            current.getSpec().setSize(7);
                            return current;
                        });
                    }
                    widget.setStatus(new Widget.Status());
                    widget.getStatus().setMessage(widget.getSpec().getColor());
                    widget.getStatus().setObservedGeneration(widget.getMetadata().getGeneration());
                    firstStored.compareAndSet(null, context.applyStatus(widget));
                    return Result.done();
                }));
        manager.start();
        return controller;
    }

    private void recolor(String name, String color) {
        client.resources(Widget.class).inNamespace("ns").withName(name).edit(widget -> {
            widget.getSpec().setColor(color);
            return widget;
        });
    }

    private Long observedGeneration(String name) {
        Widget widget = client.resources(Widget.class).inNamespace("ns").withName(name).get();
        return widget.getStatus() == null ? null : widget.getStatus().getObservedGeneration();
    }

    private String message(String name) {
        Widget widget = client.resources(Widget.class).inNamespace("ns").withName(name).get();
        return widget == null || widget.getStatus() == null ? null : widget.getStatus().getMessage();
    }
}
