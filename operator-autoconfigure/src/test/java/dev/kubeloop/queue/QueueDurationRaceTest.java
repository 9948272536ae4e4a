package dev.kubeloop.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A get that waits for the queue's lock while another thread adds an item must not measure the
 * item's queue duration from a clock it read before the item existed: that duration would be
 * negative, and Micrometer drops negative samples, so workqueue_queue_duration_seconds would lose
 * exactly its fastest samples. The race is made deterministic by holding the getter inside its
 * first clock read while the item is added.
 */
class QueueDurationRaceTest {

    private static final long TIMEOUT_SECONDS = 10;

    @Test
    void anItemAddedWhileAGetReadsTheClockNeverHasANegativeQueueDuration() throws Exception {
        HeldTicker ticker = new HeldTicker();
        List<Long> queuedNanos = new CopyOnWriteArrayList<>();
        PriorityWorkQueue<String> queue = PriorityWorkQueue.<String>builder("race").ticker(ticker)
                .listener(new WorkQueueListener() {
                    @Override
                    public void dequeued(long nanos) {
                        queuedNanos.add(nanos);
                    }
                }).build();

        Thread getter = new Thread(() -> {
            try {
                queue.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "getter");
        ticker.holdFirstReadOf(getter);
        getter.start();
        assertThat(ticker.firstReadTaken.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

        ticker.advance(Duration.ofMillis(5));
        Thread adder = new Thread(() -> queue.add("a"), "adder");
        adder.start();
        // the add either completes (the getter read its clock outside the lock) or parks on the lock
        // the getter holds while it reads the clock inside it
        await().atMost(Duration.ofSeconds(TIMEOUT_SECONDS)).until(() -> adder.getState() == Thread.State.TERMINATED
                || adder.getState() == Thread.State.WAITING);
        ticker.releaseFirstRead.countDown();
        getter.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        adder.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));

        assertThat(getter.isAlive()).isFalse();
        assertThat(queuedNanos).singleElement().satisfies(nanos -> assertThat(nanos).isNotNegative());
    }

    /** A manual ticker whose first read on one thread takes the time, then waits until released before returning it. */
    private static final class HeldTicker implements Ticker {
        final CountDownLatch firstReadTaken = new CountDownLatch(1);
        final CountDownLatch releaseFirstRead = new CountDownLatch(1);
        private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
        private volatile Thread held;

        void holdFirstReadOf(Thread thread) {
            held = thread;
        }

        void advance(Duration duration) {
            nanos.addAndGet(duration.toNanos());
        }

        @Override
        public long read() {
            long now = nanos.get();
            if (Thread.currentThread() == held) {
                held = null;
                firstReadTaken.countDown();
                try {
                    releaseFirstRead.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return now;
        }
    }
}
