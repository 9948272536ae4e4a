package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.event.EventBroadcaster;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Status writes through /status and Kubernetes Events, against the mock API server. */
class StatusAndEventsTest extends MockClusterTestSupport {


    @Test
    void updateStatusPatchesOnlyStatusInOneRequestAndLeavesSpecUntouched() {
        AtomicReference<List<RecordedRequest>> requestsOfTheWrite = new AtomicReference<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            widget.getSpec().setColor("red"); // a local change to spec must not reach the server
            widget.setStatus(new Widget.Status());
            widget.getStatus().setMessage("ready");
            widget.getStatus().setObservedGeneration(widget.getMetadata().getGeneration());
            int before = cluster.requests().size();
            Widget stored = context.updateStatus(widget);
            List<RecordedRequest> all = cluster.requests();
            requestsOfTheWrite.set(all.subList(before, all.size()));
            assertThat(stored.getStatus().getMessage()).isEqualTo("ready");
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> requestsOfTheWrite.get() != null);
        assertThat(requestsOfTheWrite.get()).singleElement().satisfies(request -> {
            assertThat(request.getMethod()).isEqualTo("PATCH");
            assertThat(request.getPath()).isEqualTo("/apis/kubeloop.dev/v1/namespaces/ns/widgets/a/status?fieldManager=widget");
            assertThat(request.getHeader("Content-Type")).startsWith("application/json-patch+json");
            assertThat(request.getUtf8Body()).doesNotContain("spec", "red");
        });
        Widget stored = client.resources(Widget.class).inNamespace("ns").withName("a").get();
        assertThat(stored.getSpec().getColor()).isEqualTo("blue");
        assertThat(stored.getStatus().getMessage()).isEqualTo("ready");
        assertThat(stored.getStatus().getObservedGeneration()).isEqualTo(1L);
    }

    @Test
    void theReconcilerWorksOnACopySoTheSharedCacheStaysAsTheServerSentIt() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            widget.getSpec().setColor("red");
            widget.getMetadata().getLabels().put("touched", "yes");
            widget.setStatus(new Widget.Status());
            widget.getStatus().setMessage("local only");
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();

        Controller<?> controller = manager.controller("widget").orElseThrow();
        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) >= 1);
        Widget cached = (Widget) controller.primaryCache().get(new ObjectKey("ns", "a")).orElseThrow();
        assertThat(cached.getSpec().getColor()).isEqualTo("blue");
        assertThat(cached.getMetadata().getLabels()).doesNotContainKey("touched");
        assertThat(cached.getStatus()).isNull();
    }

    @Test
    void statusFieldsTheReconcilerClearsAreRemoved() {
        AtomicBoolean firstWriteDone = new AtomicBoolean();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            widget.setStatus(new Widget.Status());
            widget.getStatus().setObservedGeneration(widget.getMetadata().getGeneration());
            if (!firstWriteDone.get()) {
                widget.getStatus().setMessage("temporary");
                context.updateStatus(widget);
                firstWriteDone.set(true);
                return Result.requeue();
            }
            context.updateStatus(widget); // the same status without the message
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> manager.controller("widget").orElseThrow().count(ReconcileOutcome.SUCCESS) >= 1);
        Widget stored = client.resources(Widget.class).inNamespace("ns").withName("a").get();
        assertThat(stored.getStatus().getMessage()).isNull();
        assertThat(stored.getStatus().getObservedGeneration()).isEqualTo(1L);
    }

    @Test
    void repeatedEventsAreAggregatedIntoOneEventWithACount() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            for (int i = 0; i < 3; i++) {
                context.events().normal(widget, "ConfigCreated", "created ConfigMap a-config");
            }
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> events().stream().anyMatch(e -> Integer.valueOf(3).equals(e.getCount())));
        assertThat(events()).singleElement().satisfies(event -> {
            assertThat(event.getType()).isEqualTo("Normal");
            assertThat(event.getReason()).isEqualTo("ConfigCreated");
            assertThat(event.getInvolvedObject().getName()).isEqualTo("a");
            assertThat(event.getInvolvedObject().getUid()).isNotBlank();
        });
    }

    @Test
    void aHotLoopCannotFloodTheApiServerWithEvents() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            if (widget.getMetadata().getName().equals("hot")) {
                for (int i = 0; i < 40; i++) {
                    context.events().warning(widget, "Failed", "attempt " + i);
                }
            } else {
                context.events().normal(widget, "Marker", "after the hot loop");
            }
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();

        client.resource(Widget.named("ns", "hot")).create();
        eventually().until(() -> reconciler.count("ns/hot") == 1);
        client.resource(Widget.named("ns", "marker")).create();

        // one writer thread, in order: once the marker's event exists, the hot loop's were all handled
        eventually().until(() -> events().stream().anyMatch(e -> e.getReason().equals("Marker")));
        assertThat(events().stream().filter(e -> e.getInvolvedObject().getName().equals("hot")))
                .hasSize(EventBroadcaster.SPAM_FILTER_BURST);
    }

    private List<Event> events() {
        return client.v1().events().inNamespace("ns").list().getItems();
    }
}
