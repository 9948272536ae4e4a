package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.queue.RateLimiter;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.RecordingReconciler.Call;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A 409 means a newer object is on its way through the informer: the key is retried after its own
 * short conflict backoff, without asking the controller's rate limiter (whose bucket all keys
 * share); other errors still go through the rate limiter.
 */
class ConflictBackoffTest extends MockClusterTestSupport {

    private static final int CONFLICTS = 4;

    @Test
    void conflictsAreRetriedWithTheirOwnBackoffAndSpendNothingOfTheRateLimiter() {
        CountingRateLimiter limiter = new CountingRateLimiter();
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5)).rateLimiter(() -> limiter)
                .build();
        AtomicInteger attempts = new AtomicInteger();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            int attempt = attempts.incrementAndGet();
            if (attempt <= CONFLICTS) {
                throw new KubernetesClientException("the object has been modified", 409, null);
            }
            if (attempt == CONFLICTS + 1) {
                throw new IllegalStateException("an ordinary error");
            }
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 1 && controller.queueStats().idle());
        assertThat(controller.count(ReconcileOutcome.CONFLICT)).isEqualTo(CONFLICTS);
        assertThat(limiter.asked.get()).as("rate limiter asked, for the one ordinary error only").isEqualTo(1);
        List<Call> calls = reconciler.callsFor("ns/a");
        assertThat(calls).extracting(Call::retryCount).as("a retry count counts conflicts and errors")
                .containsExactly(0, 1, 2, 3, 4, 5);
        for (int i = 1; i <= CONFLICTS; i++) {
            assertThat(Duration.ofNanos(calls.get(i).startedNanos() - calls.get(i - 1).startedNanos()))
                    .as("retry %d after a conflict", i)
                    .isGreaterThanOrEqualTo(ReconcileOutcome.CONFLICT_BACKOFF_BASE.multipliedBy(1L << (i - 1)));
        }
        assertThat(limiter.forgotten.get()).as("forgotten on success").isPositive();
        assertThat(controller.state(ObjectKey.of("ns", "a"))).isEqualTo(ItemState.ABSENT);
    }

    /** A rate limiter that answers 1 ms and counts how often it was asked. */
    private static final class CountingRateLimiter implements RateLimiter<ObjectKey> {
        final AtomicInteger asked = new AtomicInteger();
        final AtomicInteger forgotten = new AtomicInteger();
        final AtomicInteger failures = new AtomicInteger();

        @Override
        public Duration when(ObjectKey item) {
            asked.incrementAndGet();
            failures.incrementAndGet();
            return Duration.ofMillis(1);
        }

        @Override
        public void forget(ObjectKey item) {
            forgotten.incrementAndGet();
            failures.set(0);
        }

        @Override
        public int numRequeues(ObjectKey item) {
            return failures.get();
        }
    }
}
