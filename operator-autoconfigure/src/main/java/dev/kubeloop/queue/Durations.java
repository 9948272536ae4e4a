package dev.kubeloop.queue;

import java.time.Duration;

/** Overflow-safe conversions between {@link Duration} and ticker nanoseconds. */
final class Durations {

    private Durations() {
    }

    /** The duration in nanoseconds, clamped to the range of a long instead of throwing. */
    static long saturatedNanos(Duration duration) {
        if (duration.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L) {
            return Long.MAX_VALUE;
        }
        if (duration.getSeconds() <= Long.MIN_VALUE / 1_000_000_000L) {
            return Long.MIN_VALUE;
        }
        return duration.toNanos();
    }

    /** {@code a + b} clamped to the range of a long instead of wrapping around. */
    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        // Overflow iff both operands have the sign opposite to the result.
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }
}
