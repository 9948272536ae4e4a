package dev.kubeloop.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What blocks and what wakes it, on real threads and the system clock. Waits are bounded by
 * generous deadlines; "not before" checks compare against the clock, never against sleeps.
 */
class WorkQueueBlockingTest {

    private static final long DEADLINE_SECONDS = 10;

    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "queue-test");
        thread.setDaemon(true);
        return thread;
    });
    private final PriorityWorkQueue<String> queue = PriorityWorkQueue.create("blocking");

    @AfterEach
    void stopThreads() {
        queue.shutDown();
        threads.shutdownNow();
    }

    @Test
    void getBlocksUntilAnItemIsAdded() throws Exception {
        CountDownLatch getting = new CountDownLatch(1);
        Future<Optional<String>> got = threads.submit(() -> {
            getting.countDown();
            return queue.get();
        });
        getting.await();
        assertThat(got.isDone()).isFalse();
        queue.add("a");
        assertThat(got.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).contains("a");
    }

    @Test
    void shutDownWakesEveryWaitingGet() throws Exception {
        Future<Optional<String>> first = threads.submit(queue::get);
        Future<Optional<String>> second = threads.submit(queue::get);
        queue.shutDown();
        assertThat(first.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).isEmpty();
        assertThat(second.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void getWaitingForADelayedItemReturnsItWhenDueNotBefore() throws Exception {
        long start = System.nanoTime();
        queue.addAfter("a", Duration.ofMillis(50));
        Future<Optional<String>> got = threads.submit(queue::get);
        assertThat(got.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).contains("a");
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
    }

    @Test
    void earlierDelayedItemWakesAGetSleepingOnALaterOne() throws Exception {
        queue.addAfter("late", Duration.ofHours(1));
        Future<Optional<String>> got = threads.submit(queue::get);
        Future<Optional<String>> alsoWaiting = threads.submit(queue::get);
        queue.addAfter("soon", Duration.ofMillis(20));
        queue.addAfter("soon2", Duration.ofMillis(30));
        assertThat(got.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).isPresent();
        assertThat(alsoWaiting.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).isPresent();
        assertThat(queue.stats().waiting()).isEqualTo(1);
    }

    @Test
    void delaysBeyondTheClockRangeSaturateInsteadOfOverflowing() throws Exception {
        queue.addAfter("never", java.time.temporal.ChronoUnit.FOREVER.getDuration());
        Future<Optional<String>> got = threads.submit(queue::get);
        queue.add("a");
        assertThat(got.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).contains("a");
        assertThat(queue.stats().waiting()).isEqualTo(1);
        assertThat(queue.len()).isZero();
    }

    @Test
    void interruptedGetThrowsAndLeavesTheQueueUsable() throws Exception {
        CompletableFuture<Thread> getter = new CompletableFuture<>();
        Future<Optional<String>> got = threads.submit(() -> {
            getter.complete(Thread.currentThread());
            return queue.get();
        });
        getter.get(DEADLINE_SECONDS, TimeUnit.SECONDS).interrupt();
        assertThatThrownBy(() -> got.get(DEADLINE_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(InterruptedException.class);
        queue.add("a");
        assertThat(queue.get()).contains("a");
    }

    @Test
    void shutDownWithDrainWaitsForItemsInProcessing() throws Exception {
        queue.add("a");
        assertThat(queue.get()).contains("a");
        CountDownLatch draining = new CountDownLatch(1);
        Future<Boolean> drained = threads.submit(() -> {
            draining.countDown();
            return queue.shutDownWithDrain(Duration.ofSeconds(DEADLINE_SECONDS));
        });
        draining.await();
        // The drain cannot finish while "a" is held: it must still be waiting.
        assertThat(drained.isDone()).isFalse();
        queue.done("a");
        assertThat(drained.get(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(queue.isShuttingDown()).isTrue();
    }

    @Test
    void shutDownWithDrainGivesUpAfterTheTimeout() throws Exception {
        queue.add("a");
        assertThat(queue.get()).contains("a");
        long start = System.nanoTime();
        assertThat(queue.shutDownWithDrain(Duration.ofMillis(50))).isFalse();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
        assertThat(queue.stats().processing()).isEqualTo(1);
    }

    @Test
    void shutDownWithDrainReturnsAtOnceWhenNothingIsInProcessing() throws Exception {
        queue.add("queued-but-not-taken");
        assertThat(queue.shutDownWithDrain(Duration.ZERO)).isTrue();
    }
}
