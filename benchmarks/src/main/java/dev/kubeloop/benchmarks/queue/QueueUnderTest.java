package dev.kubeloop.benchmarks.queue;

import dev.kubeloop.queue.PriorityWorkQueue;
import dev.kubeloop.queue.WorkQueueListener;
import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/** The three operations the throughput benchmark drives, over each contender's queue. */
interface QueueUnderTest {

    void add(Long item);

    Long get() throws InterruptedException;

    void done(Long item);

    void shutDown();

    static QueueUnderTest create(String contender) {
        return switch (contender) {
            case "kubeloop" -> new Kubeloop(PriorityWorkQueue.<Long>create("bench"));
            case "kubeloop+metrics" -> new Kubeloop(PriorityWorkQueue.<Long>builder("bench")
                    .listener(new CountingListener())
                    .build());
            case "client-java" -> new ClientJava();
            default -> throw new IllegalArgumentException("unknown contender " + contender);
        };
    }

    /** Kubeloop's queue. */
    record Kubeloop(PriorityWorkQueue<Long> queue) implements QueueUnderTest {
        @Override
        public void add(Long item) {
            queue.add(item);
        }

        @Override
        public Long get() throws InterruptedException {
            return queue.get().orElseThrow();
        }

        @Override
        public void done(Long item) {
            queue.done(item);
        }

        @Override
        public void shutDown() {
            queue.shutDown();
        }
    }

    /** client-java's rate-limiting queue, the Java port of client-go's (it owns one loop thread). */
    final class ClientJava implements QueueUnderTest {
        private final ExecutorService waitingLoop = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "client-java-waiting-loop");
            thread.setDaemon(true);
            return thread;
        });
        private final DefaultRateLimitingQueue<Long> queue = new DefaultRateLimitingQueue<>(waitingLoop);

        @Override
        public void add(Long item) {
            queue.add(item);
        }

        @Override
        public Long get() throws InterruptedException {
            return queue.get();
        }

        @Override
        public void done(Long item) {
            queue.done(item);
        }

        @Override
        public void shutDown() {
            queue.shutDown();
            waitingLoop.shutdownNow();
        }
    }

    /** What a metrics binding costs at least: every hook updates a striped counter. */
    final class CountingListener implements WorkQueueListener {
        private final LongAdder adds = new LongAdder();
        private final LongAdder latencyNanos = new LongAdder();
        private final LongAdder workNanos = new LongAdder();

        @Override
        public void added(int priority) {
            adds.increment();
        }

        @Override
        public void dequeued(long queuedNanos) {
            latencyNanos.add(queuedNanos);
        }

        @Override
        public void done(long nanos) {
            workNanos.add(nanos);
        }
    }
}
