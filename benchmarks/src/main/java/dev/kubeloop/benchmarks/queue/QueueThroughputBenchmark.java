package dev.kubeloop.benchmarks.queue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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

/**
 * Work queue throughput: one operation is add + get + done, the cycle every reconcile pays.
 * Each thread adds its own fresh keys, so no add is deduplicated and every get finds an item; with several threads, a get may take another thread's item, as workers do.
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

    /** Hands every thread a disjoint key range, whatever JMH's thread indexes are. */
    private static final AtomicLong KEY_RANGES = new AtomicLong();

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

    /**
     * Each thread's own key sequence. Keys are never reused: with more threads than cores a
     * thread can be descheduled between get and done for thousands of another thread's cycles,
     * and a reused key would then be deduplicated, leaving a get waiting forever (in any queue).
     */
    @State(Scope.Thread)
    public static class Keys {
        private long next;

        @Setup(Level.Trial)
        public void pickRange() {
            next = KEY_RANGES.incrementAndGet() << 40;
        }

        Long next() {
            return next++;
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
