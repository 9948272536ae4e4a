package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A key keeps its priority through retries, as in controller-runtime: an object of the initial
 * list (low priority) whose reconcile fails or asks to be requeued comes back at low priority, not
 * ahead of real changes at normal priority.
 */
class RetryPriorityTest extends MockClusterTestSupport {

    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void managerWithAShortBackoff() {
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .rateLimiter(() -> new ExponentialBackoffRateLimiter<>(Duration.ofMillis(20), Duration.ofSeconds(1)))
                .build();
    }

    @Override
    protected void beforeStop() {
        release.countDown();
    }

    @Test
    void aFailedKeyOfTheInitialListIsRetriedAtLowPriority() {
        assertRetriedAtLowPriority(() -> {
            throw new IllegalStateException("first attempt fails");
        });
    }

    @Test
    void aRequeuedKeyOfTheInitialListIsRequeuedAtLowPriority() {
        assertRetriedAtLowPriority(Result::requeue);
    }

    @Test
    void aKeyRequeuedAfterADelayKeepsItsPriorityToo() {
        assertRetriedAtLowPriority(() -> Result.requeueAfter(Duration.ofMillis(20)));
    }

    /**
     * "old" exists before the start, so the initial list queues it at low priority. Its first
     * reconcile creates "busy" (a real change: normal priority), waits until the informer queued it,
     * and then ends with {@code firstOutcome}; "busy" takes the only worker next and holds it, so
     * the retry of "old" waits in the queue, where its priority can be read.
     */
    private void assertRetriedAtLowPriority(Outcome firstOutcome) {
        client.resource(Widget.named("ns", "old")).create();
        AtomicInteger oldAttempts = new AtomicInteger();
        AtomicReference<Controller<Widget>> registered = new AtomicReference<>();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            if (widget.getMetadata().getName().equals("busy")) {
                release.await(30, TimeUnit.SECONDS);
                return Result.done();
            }
            if (oldAttempts.incrementAndGet() == 1) {
                client.resource(Widget.named("ns", "busy")).create();
                eventually().until(() -> registered.get().state(ObjectKey.of("ns", "busy")) == ItemState.QUEUED);
                return firstOutcome.get();
            }
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).workers(1)
                .build(), reconciler);
        registered.set(controller);
        manager.start();

        // "busy" is in flight and the retry of "old" is ready behind it, alone in the ready buckets
        eventually().until(() -> controller.state(ObjectKey.of("ns", "busy")) == ItemState.PROCESSING
                && controller.state(ObjectKey.of("ns", "old")) == ItemState.QUEUED);
        Map<Integer, Integer> depths = controller.queueStats().depthByPriority();
        release.countDown();

        assertThat(depths).as("the retry waits at the priority it was handed out at")
                .containsExactly(Map.entry(WorkQueue.LOW_PRIORITY, 1));
        eventually().until(() -> oldAttempts.get() == 2);
    }

    @FunctionalInterface
    private interface Outcome {
        Result get() throws Exception;
    }
}
