package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.Tracing;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@code kubeloop.tracing.propagate}: the objects a traced reconcile applies carry its traceparent
 * in the tracing annotation, bounded to applies that change the object anyway (docs/tracing.md,
 * "Across operators"). Against the mock API server, whose apply keeps the resourceVersion when it
 * changes nothing and removes a field its manager stopped applying, as a real one does.
 */
class TracePropagationTest extends MockClusterTestSupport {

    private static final String ANNOTATION = Tracing.DEFAULT_ANNOTATION;
    private static final String PATH = "/api/v1/namespaces/ns/configmaps/a-config";

    private final FakeTracing tracing = new FakeTracing();
    /** The annotation the reconciler sets itself on its ConfigMap; null: none. */
    private final AtomicReference<String> ownAnnotation = new AtomicReference<>();

    @Test
    void anAppliedObjectCarriesTheTraceparentOfTheReconcileThatWroteIt() {
        start(true);
        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> configMap() != null && tracing.sentBy(PATH) != null);
        assertThat(annotation()).isEqualTo(tracing.sentBy(PATH)).endsWith("-01");
    }

    @Test
    void aReconcileThatChangesNothingElseSendsNothingAlthoughItsTraceparentDiffers() {
        Controller<Widget> controller = start(true);
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> configMap() != null && controller.queueStats().idle());
        String written = annotation();
        String version = configMap().getMetadata().getResourceVersion();
        int applies = applies();
        int reconciles = tracing.reconciles();

        controller.enqueue(ObjectKey.of("ns", "a"), 0);
        eventually().until(() -> tracing.reconciles() > reconciles && controller.queueStats().idle());

        assertThat(tracing.last()).isNotEqualTo(written);
        assertThat(applies()).as("apply PATCHes at the server").isEqualTo(applies);
        assertThat(configMap().getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(annotation()).isEqualTo(written);
    }

    @Test
    void aChangedSpecIsWrittenOnceWithTheNewTraceparent() {
        Controller<Widget> controller = start(true);
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> configMap() != null && controller.queueStats().idle());
        String first = annotation();
        int applies = applies();

        recolor("green");

        eventually().until(() -> "green".equals(configMap().getData().get("color")) && controller.queueStats().idle());
        assertThat(applies()).isEqualTo(applies + 1);
        assertThat(annotation()).isEqualTo(tracing.sentBy(PATH)).isNotEqualTo(first);
    }

    @Test
    void anAnnotationTheReconcilerSetsItselfWins() {
        ownAnnotation.set("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        Controller<Widget> controller = start(true);
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> configMap() != null && controller.queueStats().idle());
        int applies = applies();
        int reconciles = tracing.reconciles();

        controller.enqueue(ObjectKey.of("ns", "a"), 0);
        eventually().until(() -> tracing.reconciles() > reconciles && controller.queueStats().idle());

        assertThat(annotation()).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertThat(applies()).isEqualTo(applies);
    }

    @Test
    void withoutPropagateNothingIsCarried() {
        Controller<Widget> controller = start(false);
        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> configMap() != null && controller.queueStats().idle());
        assertThat(tracing.sentBy(PATH)).as("the apply was traced").isNotNull();
        assertThat(configMap().getMetadata().getAnnotations()).doesNotContainKey(ANNOTATION);
    }

    /**
     * Unsampled: nothing carried; a write that changes the object anyway drops the value carried
     * before (the field manager stops setting it), one that changes nothing is not sent.
     */
    @Test
    void anUnsampledReconcileCarriesNothingAndItsChangeDropsTheOldTraceparent() {
        Controller<Widget> controller = start(true);
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> configMap() != null && controller.queueStats().idle());
        assertThat(annotation()).isNotNull();
        String version = configMap().getMetadata().getResourceVersion();
        tracing.sampled.set(false);

        int reconciles = tracing.reconciles();
        controller.enqueue(ObjectKey.of("ns", "a"), 0);
        eventually().until(() -> tracing.reconciles() > reconciles && controller.queueStats().idle());
        assertThat(configMap().getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(annotation()).isNotNull();

        recolor("green");
        eventually().until(() -> "green".equals(configMap().getData().get("color")));
        assertThat(configMap().getMetadata().getAnnotations()).doesNotContainKey(ANNOTATION);
    }

    /** The first apply after a restart is sent (no fingerprint yet) and keeps what the object carries. */
    @Test
    void theFirstApplyAfterARestartKeepsTheCarriedTraceparent() {
        Controller<Widget> controller = start(true);
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> configMap() != null && controller.queueStats().idle());
        String written = annotation();
        String version = configMap().getMetadata().getResourceVersion();
        int applies = applies();

        Controller<Widget> restarted = start(true); // a new manager: no fingerprints

        eventually().until(() -> applies() > applies && restarted.queueStats().idle());
        assertThat(tracing.last()).isNotEqualTo(written);
        assertThat(configMap().getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(annotation()).isEqualTo(written);
    }

    private Controller<Widget> start(boolean propagate) {
        manager.stop();
        tracing.propagates.set(propagate);
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5)).tracing(tracing).build();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(ConfigMap.class)).build(), new RecordingReconciler().behaving((widget, context) -> {
                    ConfigMapBuilder desired = new ConfigMapBuilder().withNewMetadata().withName("a-config")
                            .endMetadata().addToData("color", widget.getSpec().getColor());
                    if (ownAnnotation.get() != null) {
                        desired.editMetadata().addToAnnotations(ANNOTATION, ownAnnotation.get()).endMetadata();
                    }
                    context.apply(desired.build());
                    return Result.done();
                }));
        manager.start();
        return controller;
    }

    private void recolor(String color) {
        client.resources(Widget.class).inNamespace("ns").withName("a").edit(widget -> {
            widget.getSpec().setColor(color);
            return widget;
        });
    }

    private ConfigMap configMap() {
        return client.configMaps().inNamespace("ns").withName("a-config").get();
    }

    private String annotation() {
        Map<String, String> annotations = configMap().getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(ANNOTATION);
    }

    private int applies() {
        return cluster.applies(PATH).size();
    }

    /**
     * A tracer that gives reconcile n the traceparent {@code 00-<n as 32 hex digits>-<16 hex>-01}
     * ({@code -00} while {@link #sampled} is false) and remembers which one sent each request.
     */
    static final class FakeTracing implements Tracing {

        final AtomicBoolean propagates = new AtomicBoolean();
        final AtomicBoolean sampled = new AtomicBoolean(true);
        private final AtomicInteger reconciles = new AtomicInteger();
        private final AtomicReference<String> last = new AtomicReference<>();
        /** "METHOD path" → the traceparent of the reconcile that sent it last. */
        private final Map<String, String> senders = new ConcurrentHashMap<>();

        @Override
        public boolean on() {
            return true;
        }

        @Override
        public boolean propagates() {
            return propagates.get();
        }

        @Override
        public Span reconcile(Reconcile reconcile) {
            String traceparent = String.format("00-%032x-%016x-%s", reconciles.incrementAndGet(), 1,
                    sampled.get() ? "01" : "00");
            last.set(traceparent);
            return new FakeSpan(traceparent);
        }

        @Override
        public Span webhook(String path, String traceparent) {
            throw new UnsupportedOperationException();
        }

        int reconciles() {
            return reconciles.get();
        }

        String last() {
            return last.get();
        }

        /** The traceparent of the reconcile whose last PATCH of {@code path} this was. */
        String sentBy(String path) {
            return senders.get("PATCH " + path);
        }

        private final class FakeSpan implements Span {
            private final String traceparent;

            FakeSpan(String traceparent) {
                this.traceparent = traceparent;
            }

            @Override
            public Scope open() {
                return () -> {
                };
            }

            @Override
            public Span child(String step, ObjectKey target) {
                return this;
            }

            @Override
            public Request request(String method, String path, BiConsumer<String, String> header) {
                senders.put(method + " " + path, traceparent);
                return new Request() {
                    @Override
                    public void response(int code) {
                    }

                    @Override
                    public void failed(Throwable error) {
                    }
                };
            }

            @Override
            public String traceparent() {
                return traceparent;
            }

            @Override
            public void end(String outcome, Throwable error) {
            }
        }
    }
}
