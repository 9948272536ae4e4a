package dev.kubeloop.queue;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-item exponential backoff: the n-th failure (from 0) waits {@code base * 2^n}, capped at
 * {@code max}. Overflow-safe for any number of failures.
 *
 * <p>Thread-safe: failure counts live in a {@link ConcurrentHashMap} updated atomically per item.
 * An item's entry is removed by {@link #forget}; callers must forget items that succeed or are
 * deleted, or their counts stay (as in client-go).
 */
public final class ExponentialBackoffRateLimiter<T> implements RateLimiter<T> {

    /** client-go's base delay of the default controller rate limiter. */
    public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(5);
    /** client-go's maximum delay of the default controller rate limiter. */
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(1000);

    private final long baseNanos;
    private final long maxNanos;
    private final ConcurrentHashMap<T, Integer> failures = new ConcurrentHashMap<>();

    public ExponentialBackoffRateLimiter(Duration base, Duration max) {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(max, "max");
        if (base.isNegative() || base.isZero()) {
            throw new IllegalArgumentException("base delay must be positive, was " + base);
        }
        if (max.compareTo(base) < 0) {
            throw new IllegalArgumentException("max delay " + max + " is shorter than base delay " + base);
        }
        this.baseNanos = Durations.saturatedNanos(base);
        this.maxNanos = Durations.saturatedNanos(max);
    }

    @Override
    public Duration when(T item) {
        int exponent = failures.merge(item, 1, ExponentialBackoffRateLimiter::saturatedSum) - 1;
        return Duration.ofNanos(backoffNanos(exponent));
    }

    long backoffNanos(int exponent) {
        // base << exponent overflows once base > Long.MAX_VALUE >> exponent; clamp before shifting.
        if (exponent >= Long.SIZE - 1 || baseNanos > (Long.MAX_VALUE >> exponent)) {
            return maxNanos;
        }
        return Math.min(baseNanos << exponent, maxNanos);
    }

    @Override
    public void forget(T item) {
        failures.remove(item);
    }

    @Override
    public int numRequeues(T item) {
        return failures.getOrDefault(item, 0);
    }

    private static Integer saturatedSum(Integer a, Integer b) {
        int sum = a + b;
        return sum < a ? Integer.MAX_VALUE : sum;
    }
}
