package dev.kubeloop.benchmarks.queue;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Work queue throughput: one operation is add + get + done, the cycle every reconcile pays.
 * Each thread adds its own keys (1,024 per thread, cycled), so no add is deduplicated and every
 * get finds an item; with several threads, a get may take another thread's item, as workers do.
 *
 * <p>Run: {@code ./mvnw -B -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar QueueThroughputBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class QueueThroughputBenchmark {

    private static final int KEYS_PER_THREAD = 1_024;

    @Param({"kubeloop", "kubeloop+metrics", "client-java"})
    public String contender;

    private QueueUnderTest queue;

    @Setup(Level.Trial)
    public void createQueue() {
        queue = QueueUnderTest.create(contender);
    }

    @TearDown(Level.Trial)
    public void shutDown() {
        queue.shutDown();
    }

    /** Each thread's own keys, boxed once so the benchmark measures the queue, not allocation. */
    @State(Scope.Thread)
    public static class Keys {
        private Long[] keys;
        private int next;

        @Setup(Level.Trial)
        public void createKeys(ThreadParams thread) {
            keys = new Long[KEYS_PER_THREAD];
            for (int i = 0; i < KEYS_PER_THREAD; i++) {
                keys[i] = (long) thread.getThreadIndex() * KEYS_PER_THREAD + i;
            }
        }

        Long next() {
            Long key = keys[next];
            next = (next + 1) & (KEYS_PER_THREAD - 1);
            return key;
        }
    }

    @Benchmark
    @Threads(1)
    public Long oneThread(Keys keys) throws InterruptedException {
        return cycle(keys);
    }

    @Benchmark
    @Threads(2)
    public Long twoThreads(Keys keys) throws InterruptedException {
        return cycle(keys);
    }

    @Benchmark
    @Threads(4)
    public Long fourThreads(Keys keys) throws InterruptedException {
        return cycle(keys);
    }

    private Long cycle(Keys keys) throws InterruptedException {
        queue.add(keys.next());
        Long item = queue.get();
        queue.done(item);
        return item;
    }
}
