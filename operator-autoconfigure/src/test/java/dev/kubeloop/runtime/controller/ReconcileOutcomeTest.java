package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.Result;
import dev.kubeloop.api.TerminalException;
import dev.kubeloop.testing.Eventually;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.RecordingReconciler.Call;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.Event;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** How each kind of reconcile result maps onto the queue: done, requeue, requeueAfter, errors, timeouts, conflicts. */
class ReconcileOutcomeTest extends MockClusterTestSupport {


    private Controller<Widget> start(RecordingReconciler reconciler, ControllerConfig.Builder<Widget> config) {
        Controller<Widget> controller = manager.register(config.build(), reconciler);
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        return controller;
    }

    @Test
    void requeueAfterReconcilesAgainNoSoonerThanTheDelay() {
        AtomicLong firstReturnedAt = new AtomicLong();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            if (firstReturnedAt.get() == 0) {
                firstReturnedAt.set(System.nanoTime());
                return Result.requeueAfter(Duration.ofMillis(300));
            }
            return Result.done();
        });
        Controller<Widget> controller = start(reconciler, ControllerConfig.builder("widget", Widget.class));

        eventually().until(() -> reconciler.count("ns/a") == 2);

        Call second = reconciler.callsFor("ns/a").get(1);
        assertThat(Duration.ofNanos(second.startedNanos() - firstReturnedAt.get()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(second.retryCount()).as("requeueAfter resets the backoff").isZero();
        assertThat(controller.count(ReconcileOutcome.REQUEUE_AFTER)).isEqualTo(1);
    }

    @Test
    void exceptionsAreRetriedWithGrowingBackoffUntilTheReconcileSucceeds() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            if (context.retryCount() < 3) {
                throw new IllegalStateException("dependency not ready");
            }
            return Result.done();
        });
        Controller<Widget> controller = start(reconciler, ControllerConfig.builder("widget", Widget.class));

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 1);

        List<Call> calls = reconciler.callsFor("ns/a");
        assertThat(calls).extracting(Call::retryCount).containsExactly(0, 1, 2, 3);
        for (int i = 1; i < calls.size(); i++) {
            // 5 ms doubling: the n-th retry waits at least 5 ms * 2^(n-1)
            Duration gap = Duration.ofNanos(calls.get(i).startedNanos() - calls.get(i - 1).startedNanos());
            assertThat(gap).isGreaterThanOrEqualTo(Duration.ofMillis(5L << (i - 1)));
        }
        assertThat(controller.count(ReconcileOutcome.ERROR)).isEqualTo(3);
        assertThat(controller.queueStats().idle()).isTrue();
    }

    @Test
    void requeueRetriesWithBackoffWithoutCountingAnError() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) ->
                context.retryCount() < 2 ? Result.requeue() : Result.done());
        Controller<Widget> controller = start(reconciler, ControllerConfig.builder("widget", Widget.class));

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 1);

        assertThat(reconciler.callsFor("ns/a")).extracting(Call::retryCount).containsExactly(0, 1, 2);
        assertThat(controller.count(ReconcileOutcome.REQUEUE)).isEqualTo(2);
        assertThat(controller.count(ReconcileOutcome.ERROR)).isZero();
    }

    @Test
    void aTerminalExceptionIsRecordedAsAWarningEventAndNotRetried() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            throw new TerminalException("spec.size must be positive");
        });
        Controller<Widget> controller = start(reconciler, ControllerConfig.builder("widget", Widget.class));

        eventually().until(() -> controller.count(ReconcileOutcome.TERMINAL_ERROR) == 1);
        // nothing waits for a retry: no delayed item, nothing queued, nothing in processing
        eventually().until(() -> controller.queueStats().idle());
        assertThat(reconciler.count("ns/a")).isEqualTo(1);

        eventually().until(() -> !warnings().isEmpty());
        Event event = warnings().get(0);
        assertThat(event.getReason()).isEqualTo("ReconcileFailed");
        assertThat(event.getMessage()).isEqualTo("spec.size must be positive");
        assertThat(event.getInvolvedObject().getName()).isEqualTo("a");
        assertThat(event.getInvolvedObject().getKind()).isEqualTo("Widget");
        assertThat(event.getSource().getComponent()).isEqualTo("widget");
    }

    @Test
    void aReconcileRunningPastItsTimeoutIsInterruptedCountedAndRetried() {
        AtomicBoolean interrupted = new AtomicBoolean();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            if (context.retryCount() == 0) {
                try {
                    Thread.sleep(Eventually.DEADLINE_MILLIS);
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw e;
                }
            }
            return Result.done();
        });
        Controller<Widget> controller = start(reconciler,
                ControllerConfig.builder("widget", Widget.class).reconcileTimeout(Duration.ofMillis(200)));

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 1);

        assertThat(interrupted).isTrue();
        assertThat(controller.count(ReconcileOutcome.TIMEOUT)).isEqualTo(1);
        assertThat(reconciler.callsFor("ns/a")).extracting(Call::retryCount).containsExactly(0, 1);
    }

    /**
     * A reconcile that returns its result as the timeout fires (here: it sees the interrupt and
     * returns without throwing) is taken at its word: a success, not a timeout retried with backoff.
     * The interrupt does not leak into the worker's next reconcile.
     */
    @Test
    void aReconcileThatReturnsAsItsTimeoutFiresKeepsItsResult() {
        AtomicBoolean sawTheInterrupt = new AtomicBoolean();
        AtomicBoolean nextStartedInterrupted = new AtomicBoolean();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            if (widget.getMetadata().getName().equals("a")) {
                long deadline = System.nanoTime() + Eventually.DEADLINE.toNanos();
                while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline) {
                    Thread.onSpinWait(); // busy until the timeout fires, as a reconcile finishing its last step
                }
                sawTheInterrupt.set(Thread.currentThread().isInterrupted());
                return Result.done();
            }
            nextStartedInterrupted.set(Thread.currentThread().isInterrupted());
            return Result.done();
        });
        Controller<Widget> controller = start(reconciler,
                ControllerConfig.builder("widget", Widget.class).workers(1).reconcileTimeout(Duration.ofMillis(100)));
        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 1);
        client.resource(Widget.named("ns", "b")).create();

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 2);
        assertThat(sawTheInterrupt).as("the timeout fired during the reconcile").isTrue();
        assertThat(controller.count(ReconcileOutcome.TIMEOUT)).isZero();
        assertThat(reconciler.callsFor("ns/a")).as("not retried").hasSize(1);
        assertThat(nextStartedInterrupted).as("the next reconcile starts without the interrupt").isFalse();
    }

    @Test
    void aConflictIsRetriedQuietlyAgainstTheNewerObject() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            if (context.retryCount() == 0) {
                // someone else changes the object between our read and our write
                context.client().resources(Widget.class).inNamespace("ns").withName("a").edit(w -> {
                    w.getMetadata().getAnnotations().put("touched", "yes");
                    return w;
                });
            }
            widget.setStatus(new Widget.Status());
            widget.getStatus().setMessage("seen");
            context.updateStatus(widget);
            return Result.done();
        });
        Controller<Widget> controller = start(reconciler, ControllerConfig.builder("widget", Widget.class));

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) >= 1);

        // at least one: a retry that runs before the informer delivered the newer object conflicts again
        assertThat(controller.count(ReconcileOutcome.CONFLICT)).isPositive();
        assertThat(controller.count(ReconcileOutcome.ERROR)).isZero();
        assertThat(client.resources(Widget.class).inNamespace("ns").withName("a").get().getStatus().getMessage())
                .isEqualTo("seen");
    }

    private List<Event> warnings() {
        return client.v1().events().inNamespace("ns").list().getItems().stream()
                .filter(event -> "Warning".equals(event.getType())).toList();
    }
}
