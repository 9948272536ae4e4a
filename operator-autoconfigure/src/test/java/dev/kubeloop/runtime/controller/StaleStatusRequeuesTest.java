package dev.kubeloop.runtime.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import org.junit.jupiter.api.Test;

/** When the runtime queues a key once more for a status that may be stale, and when not. */
class StaleStatusRequeuesTest {

    private static final ObjectKey A = ObjectKey.of("ns", "a");
    private static final ObjectKey B = ObjectKey.of("ns", "b");

    private final StaleStatusRequeues requeues = new StaleStatusRequeues();

    @Test
    void aStaleStatusIsLookedAtOnceMoreAndNeverAThirdTime() {
        assertThat(requeues.queueAgain(A, true, ReconcileOutcome.SUCCESS)).isTrue();
        assertThat(requeues.queueAgain(A, true, ReconcileOutcome.SUCCESS)).as("the reconcile queued for it").isFalse();
        assertThat(requeues.queueAgain(A, true, ReconcileOutcome.REQUEUE_AFTER)).as("the next change's").isTrue();
    }

    @Test
    void aFreshStatusEndsTheLookAndQueuesNothing() {
        assertThat(requeues.queueAgain(A, true, ReconcileOutcome.SUCCESS)).isTrue();
        assertThat(requeues.queueAgain(A, false, ReconcileOutcome.SUCCESS)).isFalse();
        assertThat(requeues.queueAgain(A, true, ReconcileOutcome.SUCCESS)).as("a new change, a new look").isTrue();
    }

    @Test
    void onlyAReconcileThatReturnedIsLookedAtAgain() {
        // a failure or a requeue with backoff comes back anyway
        for (ReconcileOutcome outcome : ReconcileOutcome.values()) {
            boolean returned = outcome == ReconcileOutcome.SUCCESS || outcome == ReconcileOutcome.REQUEUE_AFTER;
            assertThat(new StaleStatusRequeues().queueAgain(A, true, outcome)).as(outcome.name()).isEqualTo(returned);
        }
    }

    @Test
    void keysAreCountedApart() {
        assertThat(requeues.queueAgain(A, true, ReconcileOutcome.SUCCESS)).isTrue();
        assertThat(requeues.queueAgain(B, true, ReconcileOutcome.SUCCESS)).isTrue();
        assertThat(requeues.queueAgain(A, true, ReconcileOutcome.SUCCESS)).isFalse();
    }
}
