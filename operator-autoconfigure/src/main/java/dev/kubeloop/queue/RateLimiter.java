package dev.kubeloop.queue;

import java.time.Duration;

/**
 * Decides how long an item must wait before it is retried (client-go's {@code TypedRateLimiter}).
 *
 * <p>Implementations must be thread-safe: workers of one controller call them concurrently.
 *
 * @param <T> the item type
 */
public interface RateLimiter<T> {

    /** Records one more failure of the item and returns how long to wait before retrying it. */
    Duration when(T item);

    /** Forgets the item's failures, so its next {@link #when} starts from the base delay. */
    void forget(T item);

    /** How many failures are recorded for the item. */
    int numRequeues(T item);

    /**
     * client-go's {@code DefaultControllerRateLimiter}: the larger of a per-item exponential
     * backoff (5 ms doubling to 1000 s) and a global token bucket (10 qps, burst 100), so one
     * failing item backs off on its own while a mass failure cannot exceed 10 retries a second.
     */
    static <T> RateLimiter<T> defaultControllerRateLimiter() {
        return new MaxOfRateLimiter<>(
                new ExponentialBackoffRateLimiter<>(ExponentialBackoffRateLimiter.DEFAULT_BASE_DELAY,
                        ExponentialBackoffRateLimiter.DEFAULT_MAX_DELAY),
                new TokenBucketRateLimiter<>(TokenBucketRateLimiter.DEFAULT_QPS, TokenBucketRateLimiter.DEFAULT_BURST));
    }
}
