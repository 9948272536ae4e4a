package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ApplyOptions;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * controller-runtime's order, children read, status written, and then the children changed
 * (kubebuilder's CronJob: the status lists the active Jobs, then a new Job is created), relies on
 * the change's echo to reconcile again and correct a status that describes the read from before
 * the change. Echoes of a controller's own writes queue nothing in Kubeloop, so the runtime queues
 * that one reconcile itself when a status may describe an out-of-date read; never when the status
 * was computed after the changes, from no read, or when a write changed nothing.
 */
class StatusBeforeOwnChangeTest extends MockClusterTestSupport {

    private static final ObjectKey WIDGET = ObjectKey.of("ns", "w");

    /** What each reconcile counted: the status it wrote. */
    private final List<String> counted = new CopyOnWriteArrayList<>();

    @Test
    void aStatusWrittenBeforeAChildItCountsIsCorrectedByOneMoreReconcile() {
        Controller<Widget> controller = start(statusThenChildren());

        client.resource(widget(1)).create();

        eventually().until(() -> "children=1".equals(statusMessage()) && controller.queueStats().idle());
        assertThat(counted).as("the first reconcile counted before its apply; one more, queued by the runtime, after")
                .containsExactly("children=0", "children=1");

        // the steady state: its apply changes nothing, so nothing more is queued
        controller.enqueue(WIDGET, 0);
        eventually().until(() -> counted.size() == 3 && controller.queueStats().idle());
        assertThat(counted).hasSize(3);
    }

    @Test
    void aStatusWrittenBeforeADeletionIsCorrectedByOneMoreReconcile() {
        Controller<Widget> controller = start(statusThenChildren());
        client.resource(widget(2)).create();
        eventually().until(() -> "children=2".equals(statusMessage()) && controller.queueStats().idle());
        int before = counted.size();

        client.resources(Widget.class).inNamespace("ns").withName("w").edit(widget -> {
            widget.getSpec().setSize(1);
            return widget;
        });

        eventually().until(() -> "children=1".equals(statusMessage()) && controller.queueStats().idle());
        assertThat(counted.subList(before, counted.size())).containsExactly("children=2", "children=1");
    }

    @Test
    void aStatusWrittenLastQueuesNothingMore() {
        Controller<Widget> controller = start((widget, context) -> {
            applyChildren(widget, context);
            return count(widget, context);
        });

        client.resource(widget(1)).create();

        eventually().until(() -> "children=1".equals(statusMessage()) && controller.queueStats().idle());
        assertThat(counted).as("one reconcile: the echo of its child queues nothing").containsExactly("children=1");
    }

    @Test
    void aStatusWrittenAgainAfterTheChangeButFromTheOldReadIsCorrectedByOneMoreReconcile() {
        // the current kubebuilder CronJob: a condition written after the Job is created, with the Jobs read before
        Controller<Widget> controller = start((widget, context) -> {
            List<ConfigMap> children = context.owned(ConfigMap.class);
            write(widget, context, "children=" + children.size());
            applyChildren(widget, context, children);
            write(widget, context, "children=" + children.size() + " created");
            return Result.done();
        });

        client.resource(widget(1)).create();

        eventually().until(() -> "children=1 created".equals(statusMessage()) && controller.queueStats().idle());
        assertThat(counted).containsExactly("children=0", "children=0 created", "children=1", "children=1 created");
    }

    @Test
    void aStatusThatReadNothingIsNotOutOfDateAfterAChange() {
        // memcached's "Reconciling" condition, written before its Deployment from nothing it read
        Controller<Widget> controller = start((widget, context) -> {
            write(widget, context, "reconciling");
            applyChildren(widget, context, List.of());
            return Result.done();
        });

        client.resource(widget(1)).create();

        eventually().until(() -> "reconciling".equals(statusMessage()) && controller.queueStats().idle()
                && controller.status().writes().sent().getOrDefault(WriteOperation.APPLY, 0L) == 1);
        assertThat(counted).as("one reconcile").containsExactly("reconciling");
    }

    @Test
    void aReconcilerWhoseWriteChangesSomethingEachTimeIsReconciledTwicePerChangeAndRests() {
        // a child stamped with something new on every pass: controller-runtime's echoes would never let it rest
        AtomicInteger stamps = new AtomicInteger();
        Controller<Widget> controller = start((widget, context) -> {
            Result result = count(widget, context);
            context.apply(new ConfigMapBuilder().withNewMetadata().withName("w-0").endMetadata()
                    .addToData("stamp", String.valueOf(stamps.incrementAndGet())).build());
            return result;
        });

        client.resource(widget(1)).create();

        eventually().until(() -> counted.size() >= 2 && controller.queueStats().idle());
        assertThat(counted).as("the reconcile, and the one more the runtime queued; no third").hasSize(2);

        controller.enqueue(WIDGET, 0);
        eventually().until(() -> counted.size() >= 4 && controller.queueStats().idle());
        assertThat(counted).as("two again for the next change").hasSize(4);
    }

    @Test
    void aChangeOfAnObjectTheStatusCouldNotHaveCountedQueuesNothingMore() {
        // the sample's shared index ConfigMap: applied, not owned, after the owned ConfigMaps were read
        Controller<Widget> controller = start((widget, context) -> {
            Result result = count(widget, context);
            context.apply(new ConfigMapBuilder().withNewMetadata().withName("index").endMetadata()
                    .addToData("w", "listed").build(), ApplyOptions.defaults().notOwned());
            return result;
        });

        client.resource(widget(0)).create();

        eventually().until(() -> "children=0".equals(statusMessage()) && controller.queueStats().idle()
                && client.configMaps().inNamespace("ns").withName("index").get() != null);
        assertThat(counted).as("one reconcile").containsExactly("children=0");
    }

    /** Counts the children for the status, then applies them (deleting those beyond the size): the original's order. */
    private ResourceReconciler<Widget> statusThenChildren() {
        return (widget, context) -> {
            Result result = count(widget, context);
            applyChildren(widget, context);
            return result;
        };
    }

    private Result count(Widget widget, ReconcileContext<Widget> context) {
        write(widget, context, "children=" + context.owned(ConfigMap.class).size());
        return Result.done();
    }

    private void write(Widget widget, ReconcileContext<Widget> context, String message) {
        counted.add(message);
        widget.setStatus(new Widget.Status());
        widget.getStatus().setMessage(message);
        context.applyStatus(widget);
    }

    private static void applyChildren(Widget widget, ReconcileContext<Widget> context) {
        applyChildren(widget, context, context.owned(ConfigMap.class));
    }

    private static void applyChildren(Widget widget, ReconcileContext<Widget> context, List<ConfigMap> children) {
        for (ConfigMap child : children) {
            if (index(child) >= widget.getSpec().getSize()) {
                context.delete(child);
            }
        }
        for (int i = 0; i < widget.getSpec().getSize(); i++) {
            context.apply(new ConfigMapBuilder().withNewMetadata().withName("w-" + i).endMetadata()
                    .addToData("i", String.valueOf(i)).build());
        }
    }

    private static int index(ConfigMap child) {
        return Integer.parseInt(child.getData().get("i"));
    }

    private Controller<Widget> start(ResourceReconciler<Widget> reconciler) {
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(ConfigMap.class)).deletes(List.of(ConfigMap.class)).build(), reconciler);
        manager.start();
        return controller;
    }

    private String statusMessage() {
        return widgetStatusMessage("ns", "w");
    }

    private static Widget widget(int children) {
        return Widget.sized("ns", "w", children);
    }
}
