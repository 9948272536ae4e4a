package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.Result;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.queue.MaxOfRateLimiter;
import dev.kubeloop.queue.TokenBucketRateLimiter;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.ApiError;
import dev.kubeloop.testing.ApiFaults.Fault;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.RecordingReconciler.Call;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.Event;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A reconcile whose write the API server refuses with 403 Forbidden (the operator's Role lacks a
 * verb): one clear line per object saying what to grant, one Warning Event on the object, no stack
 * traces, retries with the rate limiter's backoff until RBAC is fixed, and one line when it recovers.
 */
class RbacForbiddenTest extends MockClusterTestSupport {

    private static final String STATUS = "/apis/kubeloop\\.dev/v1/namespaces/[^/]+/widgets/[^/]+/status";
    private static final String OPERATOR = "system:serviceaccount:ops:kubeloop-operator";
    /** Short, so that a dozen retries take seconds; they still double, as with the 5 ms default. */
    private static final Duration BASE = Duration.ofMillis(1);
    private static final int REFUSALS = 12;

    private CapturedLogs logs;

    @BeforeEach
    void captureControllerLogs() {
        logs = CapturedLogs.of(Controller.class, Level.INFO);
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .rateLimiter(() -> new MaxOfRateLimiter<>(new ExponentialBackoffRateLimiter<>(BASE,
                        Duration.ofSeconds(1000)), new TokenBucketRateLimiter<>(10, 100)))
                .build();
    }

    @AfterEach
    void releaseLogs() {
        logs.close();
    }

    private static Result observeGeneration(Widget widget, ReconcileContext<Widget> context) {
        widget.setStatus(new Widget.Status());
        widget.getStatus().setObservedGeneration(widget.getMetadata().getGeneration());
        context.updateStatus(widget);
        return Result.done();
    }

    @Test
    void aForbiddenWriteIsLoggedOnceWithWhatToGrantRecordedAsOneEventAndRetriedUntilRbacIsFixed() {
        // RBAC denies the status patch for a dozen attempts, then someone fixes the Role
        Fault denied = cluster.faults().on("PATCH", STATUS).next(REFUSALS).answer(ApiError.forbidden(OPERATOR));
        RecordingReconciler reconciler = new RecordingReconciler().behaving(RbacForbiddenTest::observeGeneration);
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                reconciler);
        manager.start();
        client.resource(Widget.named("ns", "w1")).create();

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 1 && controller.queueStats().idle());

        assertThat(denied.injected()).isEqualTo(REFUSALS);
        assertThat(controller.count(ReconcileOutcome.ERROR)).isEqualTo(REFUSALS);
        Widget stored = client.resources(Widget.class).inNamespace("ns").withName("w1").get();
        assertThat(stored.getStatus().getObservedGeneration()).isEqualTo(stored.getMetadata().getGeneration());

        // retried by the work queue, with its backoff, not given up on
        List<Call> calls = reconciler.callsFor("ns/w1");
        assertThat(calls).hasSize(REFUSALS + 1);
        for (int i = 1; i < calls.size(); i++) {
            assertThat(calls.get(i).retryCount()).isEqualTo(i);
            assertThat(Duration.ofNanos(calls.get(i).startedNanos() - calls.get(i - 1).startedNanos()))
                    .as("retry %d waits at least base * 2^%d", i, i - 1)
                    .isGreaterThanOrEqualTo(BASE.multipliedBy(1L << (i - 1)));
        }

        // one line for the dozen refusals, naming what to grant, without a stack trace
        List<ILoggingEvent> refused = logs.events(Level.WARN, "key=ns/w1");
        assertThat(refused).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.ERROR);
            assertThat(line.getThrowableProxy()).as("stack trace").isNull();
            assertThat(line.getFormattedMessage()).contains("controller=widget", "RBAC", "user \"" + OPERATOR + "\"",
                    "to patch resource \"widgets/status\" in API group \"kubeloop.dev\"", "in namespace \"ns\"",
                    "Role or ClusterRole", "ServiceAccount");
        });
        assertThat(logs.events(Level.INFO, "key=ns/w1")).as("the refusal, then the recovery").hasSize(2)
                .last().satisfies(line -> {
                    assertThat(line.getLevel()).isEqualTo(Level.INFO);
                    assertThat(line.getFormattedMessage()).contains("recovered", "controller=widget",
                            "after " + REFUSALS + " retries");
                });

        // one Warning Event on the object, whose count is the number of refusals
        eventually().until(() -> forbiddenEvents().size() == 1 && forbiddenEvents().get(0).getCount() == REFUSALS);
        Event event = forbiddenEvents().get(0);
        assertThat(event.getType()).isEqualTo("Warning");
        assertThat(event.getInvolvedObject().getName()).isEqualTo("w1");
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("Widget");
        assertThat(event.getMessage()).contains("to patch resource \"widgets/status\"", "in namespace \"ns\"");
        assertThat(controller.state(ObjectKey.of("ns", "w1"))).as("nothing pending").isEqualTo(ItemState.ABSENT);

        Duration refusing = Duration.ofNanos(calls.get(REFUSALS).startedNanos() - calls.get(0).startedNanos());
        System.out.printf("[reliability] forbidden: status PATCH of 1 object refused with 403 (RBAC) %d times, then "
                + "allowed, backoff base %d ms: %d retries over %.1f s, 1 log line (no stack trace) + 1 recovery "
                + "line, 1 Warning Event Forbidden with count %d, converged%n", REFUSALS, BASE.toMillis(), REFUSALS,
                refusing.toMillis() / 1000.0, event.getCount());
    }

    /**
     * A 403 because the namespace is being deleted is no permission problem: before, it was
     * reported as one ("not an RBAC denial") with a Warning Event per retry, each refused by the
     * same namespace. Now: one WARN line saying what it is, no Event, retried with backoff.
     */
    @Test
    void aWriteRefusedBecauseTheNamespaceIsBeingDeletedIsReportedAsThatWithoutEvents() {
        Fault terminating = cluster.faults().on("PATCH", STATUS).next(3).answer(ApiError.namespaceTerminating());
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                new RecordingReconciler().behaving(RbacForbiddenTest::observeGeneration));
        manager.start();
        client.resource(Widget.named("ns", "w1")).create();

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 1 && controller.queueStats().idle());

        assertThat(terminating.injected()).isEqualTo(3);
        assertThat(logs.events(Level.WARN, "key=ns/w1")).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.WARN);
            assertThat(line.getFormattedMessage()).contains("namespace is being deleted", "controller=widget")
                    .doesNotContain("RBAC", "not an RBAC denial");
            assertThat(line.getThrowableProxy()).as("stack trace").isNull();
        });
        assertThat(client.v1().events().inNamespace("ns").list().getItems()).extracting(Event::getReason)
                .doesNotContain("Forbidden");
    }

    private List<Event> forbiddenEvents() {
        return client.v1().events().inNamespace("ns").list().getItems().stream()
                .filter(event -> "Forbidden".equals(event.getReason())).toList();
    }
}
