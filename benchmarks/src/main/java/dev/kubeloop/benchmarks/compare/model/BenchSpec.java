package dev.kubeloop.benchmarks.compare.model;

/**
 * What the load driver changes. {@code stampNanos} is the wall-clock time (epoch nanoseconds, see
 * {@link dev.kubeloop.benchmarks.compare.common.WallClock}) at which the driver issued the change, so the reconciler can compute the
 * event-to-reconcile latency in another process.
 */
public class BenchSpec {

    private long value;
    private long stampNanos;

    public BenchSpec() {
    }

    public BenchSpec(long value, long stampNanos) {
        this.value = value;
        this.stampNanos = stampNanos;
    }

    public long getValue() {
        return value;
    }

    public void setValue(long value) {
        this.value = value;
    }

    public long getStampNanos() {
        return stampNanos;
    }

    public void setStampNanos(long stampNanos) {
        this.stampNanos = stampNanos;
    }
}
