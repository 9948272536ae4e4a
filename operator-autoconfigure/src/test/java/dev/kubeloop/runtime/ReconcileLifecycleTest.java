package dev.kubeloop.runtime;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Result;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Create, update, delete, finalizers and owned objects, end to end against the mock API server. */
class ReconcileLifecycleTest extends MockClusterTestSupport {


    @Test
    void reconcilesOnCreateAndAgainOnSpecUpdate() {
        RecordingReconciler reconciler = new RecordingReconciler();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> reconciler.count("ns/a") == 1);

        client.resources(Widget.class).inNamespace("ns").withName("a").edit(widget -> {
            widget.getSpec().setSize(3);
            return widget;
        });
        eventually().until(() -> reconciler.callsFor("ns/a").stream()
                .anyMatch(call -> call.widget().getSpec().getSize() == 3));
    }

    @Test
    void deletedObjectIsNotReconciledAndItsKeyIsForgotten() {
        RecordingReconciler reconciler = new RecordingReconciler();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                reconciler);
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> reconciler.count("ns/a") == 1);

        client.resource(Widget.named("ns", "a")).delete();

        eventually().until(() -> controller.count(ReconcileOutcome.GONE) == 1);
        assertThat(reconciler.count("ns/a")).isEqualTo(1);
        assertThat(controller.finalizer()).isEmpty();
    }

    @Test
    void finalizerIsAddedBeforeTheFirstReconcileAndRemovedOnlyAfterCleanupReturnsDone() {
        AtomicInteger cleanups = new AtomicInteger();
        RecordingReconciler reconciler = new RecordingReconciler() {
            @Override
            public Result cleanup(Widget widget, ReconcileContext<Widget> context) {
                // the first cleanup is not finished yet: the finalizer must stay
                return cleanups.incrementAndGet() == 1 ? Result.requeue() : Result.done();
            }
        };
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                reconciler);
        manager.start();
        assertThat(controller.finalizer()).contains("widget.kubeloop.dev/finalizer");

        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> reconciler.count("ns/a") >= 1);
        assertThat(reconciler.callsFor("ns/a").get(0).widget().getMetadata().getFinalizers())
                .containsExactly("widget.kubeloop.dev/finalizer");
        assertThat(widget("a").getMetadata().getFinalizers()).containsExactly("widget.kubeloop.dev/finalizer");

        client.resource(Widget.named("ns", "a")).delete();

        eventually().until(() -> cleanups.get() == 2 && widget("a") == null);
    }

    @Test
    void anExplicitFinalizerIsManagedEvenWithoutCleanup() {
        RecordingReconciler reconciler = new RecordingReconciler();
        manager.register(ControllerConfig.builder("widget", Widget.class).finalizer("example.com/keep").build(),
                reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();
        // adding the finalizer is an update too, so a second reconcile may follow the first
        eventually().until(() -> reconciler.count("ns/a") >= 1);
        assertThat(widget("a").getMetadata().getFinalizers()).containsExactly("example.com/keep");

        client.resource(Widget.named("ns", "a")).delete();
        eventually().until(() -> widget("a") == null);
    }

    @Test
    void aChangeToAnOwnedConfigMapReenqueuesItsOwner() {
        List<List<String>> ownedSeen = new CopyOnWriteArrayList<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            ownedSeen.add(context.owned(ConfigMap.class).stream().map(cm -> cm.getMetadata().getName()).toList());
            if (context.cached(ConfigMap.class, new dev.kubeloop.api.ObjectKey("ns", "a-config")).isEmpty()) {
                context.client().resource(new ConfigMapBuilder()
                        .withNewMetadata().withNamespace("ns").withName("a-config")
                        .addNewOwnerReference().withApiVersion("kubeloop.dev/v1").withKind("Widget")
                        .withName(widget.getMetadata().getName()).withUid(widget.getMetadata().getUid())
                        .withController(true).endOwnerReference()
                        .endMetadata().withData(Map.of("color", "blue")).build()).createOr(c -> c.update());
            }
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).owns(List.of(ConfigMap.class)).build(),
                reconciler);
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        // the ConfigMap's creation itself re-enqueues the widget, whose reconcile then sees it
        eventually().until(() -> ownedSeen.contains(List.of("a-config")));
        int before = reconciler.count("ns/a");

        client.configMaps().inNamespace("ns").withName("a-config").edit(cm -> {
            cm.setData(Map.of("color", "red"));
            return cm;
        });

        eventually().until(() -> reconciler.count("ns/a") > before);
    }

    private Widget widget(String name) {
        return client.resources(Widget.class).inNamespace("ns").withName(name).get();
    }
}
