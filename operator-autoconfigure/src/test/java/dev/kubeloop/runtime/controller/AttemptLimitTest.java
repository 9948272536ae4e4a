package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.conditions.Conditions;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.ConditionedWidget;
import dev.kubeloop.testing.MockClusterTestSupport;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code max-attempts}: a key whose reconcile fails that many times in a row rests (not queued
 * again, a {@code RetriesExhausted} Warning event, the condition {@code Stalled=True}) until its
 * object changes or a trigger queues it; then it gets the same number of attempts again, and a
 * success sets {@code Stalled=False}. Without the setting a failing key is retried for ever. On the
 * mock API server with a 1 ms backoff; "no more retries" is shown without waiting for time to
 * pass: the queue holds nothing for the key (no delayed retry), and a later key fails its attempts
 * meanwhile.
 */
class AttemptLimitTest extends MockClusterTestSupport {

    private static final int MAX_ATTEMPTS = 3;
    private static final ObjectKey A = ObjectKey.of("ns", "a");
    private static final ObjectKey B = ObjectKey.of("ns", "b");

    private final AtomicBoolean failing = new AtomicBoolean(true);
    private final Map<ObjectKey, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private Controller<ConditionedWidget> controller;

    private void start(int maxAttempts) {
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .rateLimiter(() -> new ExponentialBackoffRateLimiter<>(Duration.ofMillis(1), Duration.ofMillis(20)))
                .build();
        controller = manager.register(ControllerConfig.builder("widget", ConditionedWidget.class)
                .maxAttempts(maxAttempts).build(), new ResourceReconciler<ConditionedWidget>() {
                    @Override
                    public Result reconcile(ConditionedWidget widget, ReconcileContext<ConditionedWidget> context) {
                        attempts.computeIfAbsent(context.key(), key -> new AtomicInteger()).incrementAndGet();
                        if (failing.get()) {
                            throw new IllegalStateException("the database is unreachable");
                        }
                        return Result.done();
                    }
                });
        manager.start();
    }

    @Test
    void aKeyThatFailsMaxAttemptsTimesRestsWithAWarningAndStalled() {
        start(MAX_ATTEMPTS);
        create("a");

        awaitRested(1);

        assertThat(attempts(A)).isEqualTo(MAX_ATTEMPTS);
        assertThat(controller.resting(A)).isTrue();
        assertThat(controller.state(A)).as("no retry pending").isEqualTo(ItemState.ABSENT);
        assertThat(controller.restingKeys()).isEqualTo(1);
        assertThat(controller.count(ReconcileOutcome.RETRIES_EXHAUSTED)).isEqualTo(1);
        assertThat(controller.count(ReconcileOutcome.ERROR)).isEqualTo(MAX_ATTEMPTS - 1);
        eventually().until(() -> warnings() == 1);
        assertThat(cluster.events("ns", FailureStatus.RETRIES_EXHAUSTED)).singleElement()
                .satisfies(event -> assertThat(event.getMessage()).contains("failed 3 times in a row",
                        "the database is unreachable"));
        eventually().until(() -> stalled().isPresent());
        assertThat(stalled().get()).satisfies(condition -> {
            assertThat(condition.getStatus()).isEqualTo("True");
            assertThat(condition.getReason()).isEqualTo(FailureStatus.RETRIES_EXHAUSTED);
            assertThat(condition.getMessage()).contains("no more retries until the object changes");
        });

        // another key fails all its attempts meanwhile, longer than a's next backoff would have been
        create("b");
        eventually().until(() -> controller.count(ReconcileOutcome.RETRIES_EXHAUSTED) == 2);
        assertThat(controller.resting(B)).isTrue();
        assertThat(attempts(B)).isEqualTo(MAX_ATTEMPTS);
        assertThat(attempts(A)).as("a rests").isEqualTo(MAX_ATTEMPTS);
        assertThat(controller.restingKeys()).isEqualTo(2);
    }

    @Test
    void aChangeOrATriggerWakesARestingKeyWithAsManyAttemptsAgain() {
        start(MAX_ATTEMPTS);
        create("a");
        awaitRested(1);
        eventually().until(() -> stalled().isPresent()); // the last write before it rests

        client.resources(ConditionedWidget.class).inNamespace("ns").withName("a").edit(widget -> {
            widget.getSpec().setColor("green");
            return widget;
        });
        awaitRested(2);
        assertThat(attempts(A)).isEqualTo(2 * MAX_ATTEMPTS);

        controller.enqueue(A, WorkQueue.NORMAL_PRIORITY);
        awaitRested(3);
        assertThat(attempts(A)).isEqualTo(3 * MAX_ATTEMPTS);
        assertThat(controller.resting(A)).isTrue();
        eventually().until(() -> warnings() == 3);
    }

    @Test
    void aSuccessAfterWakingSetsStalledFalse() {
        start(MAX_ATTEMPTS);
        create("a");
        eventually().until(() -> stalled().filter(condition -> "True".equals(condition.getStatus())).isPresent());

        failing.set(false);
        controller.enqueue(A, WorkQueue.NORMAL_PRIORITY);

        eventually().until(() -> stalled().filter(condition -> "False".equals(condition.getStatus())).isPresent());
        assertThat(stalled().get().getReason()).isEqualTo(FailureStatus.RECOVERED);
        assertThat(controller.restingKeys()).isZero();
    }

    @Test
    void withoutALimitAFailingKeyIsRetriedForEver() {
        start(0);
        create("a");

        eventually().until(() -> attempts(A) >= 5 * MAX_ATTEMPTS);
        assertThat(controller.resting(A)).isFalse();
        assertThat(controller.count(ReconcileOutcome.RETRIES_EXHAUSTED)).isZero();
        assertThat(warnings()).isZero();
    }

    /** Waits until keys ran out of attempts {@code times} times in all, and a is not being reconciled. */
    private void awaitRested(int times) {
        eventually().until(() -> controller.count(ReconcileOutcome.RETRIES_EXHAUSTED) == times
                && controller.state(A) != ItemState.PROCESSING);
    }

    private void create(String name) {
        client.resource(ConditionedWidget.named("ns", name)).create();
    }

    private int attempts(ObjectKey key) {
        AtomicInteger count = attempts.get(key);
        return count == null ? 0 : count.get();
    }

    private int warnings() {
        return cluster.events("ns", FailureStatus.RETRIES_EXHAUSTED).stream().filter(e -> "Warning".equals(e.getType()))
                .mapToInt(AttemptLimitTest::count).sum();
    }

    private static int count(Event event) {
        return event.getCount() == null ? 1 : event.getCount();
    }

    private java.util.Optional<Condition> stalled() {
        ConditionedWidget widget = client.resources(ConditionedWidget.class).inNamespace("ns").withName("a").get();
        if (widget == null || widget.getStatus() == null || widget.getStatus().getConditions() == null) {
            return java.util.Optional.empty();
        }
        return Conditions.find(widget.getStatus().getConditions(), FailureStatus.STALLED);
    }
}
