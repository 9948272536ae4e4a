package dev.kubeloop.benchmarks.compare.contender;

import java.util.Arrays;

/**
 * Keeps every latency sample (a run has a few thousand) and summarizes them exactly, which a
 * bucketed histogram would not do for the max and the p99 of a small sample. Thread-safe.
 */
public final class LatencyRecorder {

    private long[] samples = new long[1024];
    private int size;

    public synchronized void record(long nanos) {
        if (size == samples.length) {
            samples = Arrays.copyOf(samples, size * 2);
        }
        samples[size++] = nanos;
    }

    /** The summary of what was recorded since the previous call, which starts a new period. */
    public synchronized Summary takeSummary() {
        long[] sorted = Arrays.copyOf(samples, size);
        Arrays.sort(sorted);
        Summary summary = new Summary(size, percentile(sorted, 0.50), percentile(sorted, 0.99),
                size == 0 ? 0 : sorted[size - 1]);
        size = 0;
        return summary;
    }

    /** Nearest-rank percentile; 0 when there are no samples. */
    static long percentile(long[] sorted, double fraction) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(fraction * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** Count and percentiles, in nanoseconds. */
    public record Summary(int count, long p50Nanos, long p99Nanos, long maxNanos) {
    }
}
