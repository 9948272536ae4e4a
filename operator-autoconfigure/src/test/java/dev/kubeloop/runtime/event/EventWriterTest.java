package dev.kubeloop.runtime.event;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.testing.ApiError;
import dev.kubeloop.testing.ApiFaults.Fault;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The event writer thread outlives whatever writing one event throws. */
class EventWriterTest {

    private final MockCluster cluster = MockCluster.withWidgetCrd();
    private EventBroadcaster broadcaster;

    @AfterEach
    void stop() throws InterruptedException {
        if (broadcaster != null) {
            broadcaster.close(Duration.ofSeconds(2));
        }
        cluster.close();
    }

    /**
     * An Error (a linkage or assertion error in a serializer, say) used to end the writer thread
     * without a log line, and every Event after it was lost.
     */
    @Test
    void anErrorWritingOneEventIsLoggedAndTheEventsAfterItAreWritten() {
        AtomicBoolean failNext = new AtomicBoolean(true);
        KubernetesClient client = clientFailingOnce(cluster.client(), failNext);
        try (CapturedLogs logs = CapturedLogs.of(EventBroadcaster.class, Level.ERROR)) {
            broadcaster = new EventBroadcaster(client);
            broadcaster.start();
            EventRecorder recorder = broadcaster.recorderFor("widget");
            Widget widget = Widget.named("ns", "a");
            widget.getMetadata().setUid("uid-a");

            recorder.normal(widget, "First", "fails with an Error");
            recorder.normal(widget, "Second", "is written anyway");

            eventually().until(() -> reasons().contains("Second"));
            assertThat(failNext).as("the first write hit the Error").isFalse();
            assertThat(reasons()).doesNotContain("First");
            assertThat(logs.events(Level.ERROR, "reason=First")).singleElement()
                    .satisfies(line -> assertThat(line.getThrowableProxy().getClassName())
                            .isEqualTo(AssertionError.class.getName()));
        }
    }

    /**
     * A repeat of an event is one PATCH of the Event it was written to: no GET first, which the
     * operator's RBAC does not grant (create and patch on events only; the chart's e2e caught a
     * GET).
     */
    @Test
    void aRepeatedEventIsOnePatchOfItsEventWithoutReadingItFirst() {
        broadcaster = new EventBroadcaster(cluster.client());
        broadcaster.start();
        EventRecorder recorder = broadcaster.recorderFor("widget");
        Widget widget = Widget.named("ns", "a");
        widget.getMetadata().setUid("uid-a");

        recorder.normal(widget, "Synced", "all good");
        eventually().until(() -> counts().equals(List.of(1)));
        recorder.normal(widget, "Synced", "all good");
        eventually().until(() -> counts().equals(List.of(2)));

        List<String> eventRequests = cluster.requests(request -> request.getPath().startsWith("/api/v1/namespaces/ns/events"))
                .stream().map(request -> request.getMethod() + " " + request.getPath().replaceAll("\\?.*", ""))
                .filter(request -> !request.equals("GET /api/v1/namespaces/ns/events")) // this test's own lists
                .toList();
        assertThat(eventRequests).hasSize(2).first().asString().isEqualTo("POST /api/v1/namespaces/ns/events");
        assertThat(eventRequests.get(1)).startsWith("PATCH /api/v1/namespaces/ns/events/a.");
    }

    /**
     * Once a namespace is being deleted, every Event about an object in it is refused (a create
     * there is); before, each was sent and failed, one request per event, for as long as a
     * reconcile of an object there kept failing. Now: one request, one debug line, the rest dropped
     * here, and other namespaces are written as ever.
     */
    @Test
    void eventsIntoANamespaceBeingDeletedAreDroppedAfterOneRefusalWithOneDebugLine() {
        Fault terminating = cluster.faults().on("POST", "/api/v1/namespaces/doomed/events")
                .answer(ApiError.namespaceTerminating());
        try (CapturedLogs logs = CapturedLogs.of(EventBroadcaster.class, Level.DEBUG)) {
            broadcaster = new EventBroadcaster(cluster.client());
            broadcaster.start();
            EventRecorder recorder = broadcaster.recorderFor("widget");
            for (int i = 0; i < 5; i++) {
                Widget widget = Widget.named("doomed", "w" + i);
                widget.getMetadata().setUid("uid-" + i);
                recorder.warning(widget, "Failed" + i, "cleanup failed");
            }
            Widget elsewhere = Widget.named("ns", "a");
            elsewhere.getMetadata().setUid("uid-a");
            recorder.normal(elsewhere, "Written", "in a namespace that is not being deleted");

            eventually().until(() -> reasons().contains("Written")); // one writer thread: the five went first
            assertThat(terminating.hits()).as("requests into the namespace being deleted").hasSize(1);
            assertThat(logs.events(Level.DEBUG, "doomed")).singleElement().satisfies(line -> {
                assertThat(line.getLevel()).isEqualTo(Level.DEBUG);
                assertThat(line.getFormattedMessage()).contains("namespace doomed is being deleted", "controller=widget");
            });
            assertThat(logs.events(Level.WARN, "")).isEmpty();
        }
    }

    private List<Integer> counts() {
        return cluster.client().v1().events().inNamespace("ns").list().getItems().stream().map(Event::getCount)
                .toList();
    }

    private List<String> reasons() {
        return cluster.client().v1().events().inNamespace("ns").list().getItems().stream().map(Event::getReason)
                .toList();
    }

    /** The client, except that its first {@code resource(...)} call throws an {@link AssertionError}. */
    private static KubernetesClient clientFailingOnce(KubernetesClient delegate, AtomicBoolean failNext) {
        return (KubernetesClient) Proxy.newProxyInstance(EventWriterTest.class.getClassLoader(),
                new Class<?>[] {KubernetesClient.class}, (proxy, method, args) -> {
                    if (method.getName().equals("resource") && failNext.compareAndSet(true, false)) {
                        throw new AssertionError("broken serializer");
                    }
                    try {
                        return method.invoke(delegate, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
