package dev.kubeloop.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The metrics hooks and gauges the metrics module builds on. */
class WorkQueueListenerTest {

    private final ManualTicker ticker = new ManualTicker();
    private final RecordingListener listener = new RecordingListener();
    private final PriorityWorkQueue<String> queue = PriorityWorkQueue.<String>builder("metrics")
            .ticker(ticker)
            .listener(listener)
            .build();

    @Test
    void addsAreCountedOnlyWhenNotDeduplicated() {
        queue.add("a");
        queue.add("a");
        queue.add("b", WorkQueue.LOW_PRIORITY);
        assertThat(listener.addedPriorities).containsExactly(WorkQueue.NORMAL_PRIORITY, WorkQueue.LOW_PRIORITY);
    }

    @Test
    void queueLatencyRunsFromReadyToGetAndWorkDurationFromGetToDone() throws InterruptedException {
        queue.add("a");
        ticker.advance(Duration.ofMillis(30));
        queue.get();
        ticker.advance(Duration.ofMillis(70));
        queue.done("a");
        assertThat(listener.queuedNanos).containsExactly(Duration.ofMillis(30).toNanos());
        assertThat(listener.workNanos).containsExactly(Duration.ofMillis(70).toNanos());
    }

    @Test
    void delayedItemLatencyStartsAtItsReadyTimeNotWhenNoticed() throws InterruptedException {
        queue.addAfter("a", Duration.ofSeconds(1));
        ticker.advance(Duration.ofSeconds(3));
        queue.get();
        assertThat(listener.queuedNanos).containsExactly(Duration.ofSeconds(2).toNanos());
        assertThat(listener.addedPriorities).hasSize(1);
    }

    @Test
    void everyDelayedOrRateLimitedAddCountsAsARetry() {
        queue.add("a");
        queue.addAfter("b", Duration.ofSeconds(1));
        queue.addRateLimited("c");
        assertThat(listener.retries).isEqualTo(2);
    }

    @Test
    void statsReportDepthWaitingAndHowLongWorkersHoldItems() throws InterruptedException {
        queue.add("a");
        queue.add("b");
        queue.add("c", WorkQueue.LOW_PRIORITY);
        queue.addAfter("d", Duration.ofMinutes(1));
        queue.get();
        ticker.advance(Duration.ofSeconds(2));
        queue.get();
        ticker.advance(Duration.ofSeconds(1));
        queue.add("a"); // blocked behind its own processing: part of depth, not of len

        WorkQueueStats stats = queue.stats();

        assertThat(stats.depth()).isEqualTo(2);
        assertThat(queue.len()).isEqualTo(1);
        assertThat(stats.depthByPriority()).containsExactly(
                Map.entry(WorkQueue.NORMAL_PRIORITY, 1), Map.entry(WorkQueue.LOW_PRIORITY, 1));
        assertThat(stats.waiting()).isEqualTo(1);
        assertThat(stats.processing()).isEqualTo(2);
        assertThat(stats.unfinishedWorkSeconds()).isEqualTo(4.0);
        assertThat(stats.longestRunningProcessorSeconds()).isEqualTo(3.0);
        assertThat(stats.idle()).isFalse();
    }

    @Test
    void stateTellsWhereEachItemStands() throws InterruptedException {
        queue.add("queued");
        queue.addAfter("waiting", Duration.ofMinutes(1));
        queue.add("held");
        queue.add("queued", WorkQueue.LOW_PRIORITY); // dedup: stays one queued item
        assertThat(queue.get()).contains("queued");
        assertThat(queue.get()).contains("held");
        queue.add("queued"); // held and queued again: processing wins
        queue.add("fresh");

        assertThat(queue.state("held")).isEqualTo(ItemState.PROCESSING);
        assertThat(queue.state("queued")).isEqualTo(ItemState.PROCESSING);
        assertThat(queue.state("waiting")).isEqualTo(ItemState.WAITING);
        assertThat(queue.state("fresh")).isEqualTo(ItemState.QUEUED);
        assertThat(queue.state("never")).isEqualTo(ItemState.ABSENT);

        queue.done("held");
        queue.done("queued");
        assertThat(queue.state("held")).isEqualTo(ItemState.ABSENT);
        assertThat(queue.state("queued")).isEqualTo(ItemState.QUEUED);
        assertThat(ItemState.QUEUED.busy()).isTrue();
        assertThat(ItemState.WAITING.busy()).isFalse();
    }

    @Test
    void emptyQueueIsIdle() throws InterruptedException {
        queue.add("a");
        queue.get();
        queue.done("a");
        assertThat(queue.stats().idle()).isTrue();
        assertThat(queue.stats().unfinishedWorkSeconds()).isZero();
    }

    private static final class RecordingListener implements WorkQueueListener {
        final List<Integer> addedPriorities = new ArrayList<>();
        final List<Long> queuedNanos = new ArrayList<>();
        final List<Long> workNanos = new ArrayList<>();
        int retries;

        @Override
        public void added(int priority) {
            addedPriorities.add(priority);
        }

        @Override
        public void dequeued(long nanos) {
            queuedNanos.add(nanos);
        }

        @Override
        public void done(long nanos) {
            workNanos.add(nanos);
        }

        @Override
        public void retried() {
            retries++;
        }
    }
}
