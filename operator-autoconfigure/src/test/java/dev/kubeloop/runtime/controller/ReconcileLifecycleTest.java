package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.api.Cleaner;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
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
        // the first cleanup is not finished yet: the finalizer must stay
        CleaningReconciler reconciler = new CleaningReconciler(
                () -> cleanups.incrementAndGet() == 1 ? Result.requeue() : Result.done());
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

    /**
     * operator-sdk's memcached operator writes a Degraded condition twice in its finalizer operations
     * (Unknown, then True): a cleanup whose status writes differ on every run. The finalizer's removal
     * must be locked on the object as those writes left it, else it conflicts, the cleanup runs again,
     * writes again, and the object is never let go (docs/acceptance.md).
     */
    @Test
    void aCleanupThatWritesStatusHasItsFinalizerRemovedAfterItsOwnWrites() {
        AtomicInteger cleanups = new AtomicInteger();
        ResourceReconciler<Widget> reconciler = new StatusWritingCleaner(cleanups);
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                reconciler);
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> widget("a") != null && widget("a").getMetadata().getFinalizers() != null
                && !widget("a").getMetadata().getFinalizers().isEmpty());

        client.resource(Widget.named("ns", "a")).delete();

        eventually().until(() -> widget("a") == null);
        assertThat(cleanups).hasValue(1);
        assertThat(controller.count(ReconcileOutcome.CONFLICT)).isZero();
    }

    /** Writes a status that differs on every cleanup, twice per cleanup. */
    private static final class StatusWritingCleaner implements ResourceReconciler<Widget>, Cleaner<Widget> {
        private final AtomicInteger cleanups;

        StatusWritingCleaner(AtomicInteger cleanups) {
            this.cleanups = cleanups;
        }

        @Override
        public Result reconcile(Widget widget, ReconcileContext<Widget> context) {
            return Result.done();
        }

        @Override
        public Result cleanup(Widget widget, ReconcileContext<Widget> context) {
            int run = cleanups.incrementAndGet();
            widget.setStatus(new Widget.Status());
            widget.getStatus().setMessage("finalizing " + run);
            Widget written = context.applyStatus(widget);
            written.getStatus().setMessage("finalized " + run);
            context.applyStatus(written);
            return Result.done();
        }
    }

    @Test
    void aCleanerMayNameItsFinalizer() {
        CleaningReconciler reconciler = new CleaningReconciler(Result::done);
        manager.register(ControllerConfig.builder("widget", Widget.class).finalizer("example.com/keep").build(),
                reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();
        // adding the finalizer is an update too, so a second reconcile may follow the first
        eventually().until(() -> reconciler.count("ns/a") >= 1);
        assertThat(widget("a").getMetadata().getFinalizers()).containsExactly("example.com/keep");

        client.resource(Widget.named("ns", "a")).delete();
        eventually().until(() -> widget("a") == null);
        assertThat(reconciler.cleanups).hasValue(1);
    }

    @Test
    void aFinalizerWithoutCleanupFailsRegistrationNamingTheFix() {
        ControllerConfig<Widget> config = ControllerConfig.builder("widget", Widget.class)
                .finalizer("example.com/keep").build();

        assertThatThrownBy(() -> manager.register(config, new RecordingReconciler()))
                .isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
                    assertThat(e.controller()).isEqualTo("widget");
                    assertThat(e.setting()).isEqualTo("finalizer");
                    assertThat(e.description()).contains("example.com/keep", "Cleaner");
                    assertThat(e.action()).contains("Implement Cleaner<Widget>");
                });
    }

    /**
     * A JDK proxy declares every interface method itself, so asking whether it overrides cleanup
     * said yes and gave every object a finalizer; implementing Cleaner is what counts now.
     */
    @Test
    void aJdkProxyOfAPlainReconcilerGetsNoFinalizerAndOneOfACleanerDoes() {
        RecordingReconciler plain = new RecordingReconciler();
        CleaningReconciler cleaner = new CleaningReconciler(Result::done);
        Controller<Widget> plainController = manager.register(ControllerConfig.builder("plain", Widget.class).build(),
                proxy(plain, ResourceReconciler.class));
        Controller<Widget> cleaningController = manager.register(
                ControllerConfig.builder("cleaning", Widget.class).build(),
                proxy(cleaner, ResourceReconciler.class, Cleaner.class));
        manager.start();

        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> plain.count("ns/a") >= 1 && cleaner.count("ns/a") >= 1);

        assertThat(plainController.finalizer()).isEmpty();
        assertThat(cleaningController.finalizer()).contains("cleaning.kubeloop.dev/finalizer");
        assertThat(widget("a").getMetadata().getFinalizers()).containsExactly("cleaning.kubeloop.dev/finalizer");
    }

    @SuppressWarnings("unchecked")
    private static ResourceReconciler<Widget> proxy(Object target, Class<?>... interfaces) {
        return (ResourceReconciler<Widget>) Proxy.newProxyInstance(ReconcileLifecycleTest.class.getClassLoader(),
                interfaces, (proxy, method, args) -> {
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** A recording reconciler that implements Cleaner; each cleanup returns what {@code results} gives. */
    private static final class CleaningReconciler extends RecordingReconciler implements Cleaner<Widget> {
        final AtomicInteger cleanups = new AtomicInteger();
        private final Supplier<Result> results;

        CleaningReconciler(Supplier<Result> results) {
            this.results = results;
        }

        @Override
        public Result cleanup(Widget widget, ReconcileContext<Widget> context) {
            cleanups.incrementAndGet();
            return results.get();
        }
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
