package dev.kubeloop.queue;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A global token bucket shared by all items (golang's {@code rate.Limiter} as client-go's
 * {@code BucketRateLimiter} uses it): the bucket holds up to {@code burst} tokens and refills at
 * {@code qps}; every {@link #when} takes one token, reserving a future one when the bucket is
 * empty, so the returned delays space retries out to {@code qps} on average.
 *
 * <p>Thread-safe: the bucket state is guarded by a lock held for a few arithmetic operations.
 * It tracks no items, so {@link #forget} does nothing and {@link #numRequeues} is always 0.
 */
public final class TokenBucketRateLimiter<T> implements RateLimiter<T> {

    /** client-go's refill rate of the default controller rate limiter's bucket. */
    public static final double DEFAULT_QPS = 10;
    /** client-go's bucket size of the default controller rate limiter. */
    public static final int DEFAULT_BURST = 100;

    private static final double NANOS_PER_SECOND = 1_000_000_000d;

    private final double qps;
    private final int burst;
    private final Ticker ticker;
    private final ReentrantLock lock = new ReentrantLock();
    private double tokens; // guarded by lock; negative = tokens already promised to waiting items
    private long lastRefill; // guarded by lock

    public TokenBucketRateLimiter(double qps, int burst) {
        this(qps, burst, Ticker.system());
    }

    public TokenBucketRateLimiter(double qps, int burst, Ticker ticker) {
        if (!validQps(qps)) {
            throw new IllegalArgumentException("qps must be a positive finite number, was " + qps);
        }
        if (!validBurst(burst)) {
            throw new IllegalArgumentException("burst must be at least 1, was " + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.ticker = ticker;
        this.tokens = burst;
        this.lastRefill = ticker.read();
    }

    /** The refill rates a bucket accepts: positive and finite (the settings catalog checks with this too). */
    public static boolean validQps(double qps) {
        return qps > 0 && !Double.isInfinite(qps);
    }

    /** The sizes a bucket accepts: 1 or more. */
    public static boolean validBurst(int burst) {
        return burst >= 1;
    }

    @Override
    public Duration when(T item) {
        lock.lock();
        try {
            long now = ticker.read();
            long elapsed = Math.max(0, now - lastRefill);
            tokens = Math.min(burst, tokens + elapsed * qps / NANOS_PER_SECOND);
            lastRefill = Math.max(now, lastRefill);
            tokens -= 1;
            if (tokens >= 0) {
                return Duration.ZERO;
            }
            return Duration.ofNanos((long) Math.ceil(-tokens / qps * NANOS_PER_SECOND));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void forget(T item) {
        // Global limiter: nothing is tracked per item.
    }

    @Override
    public int numRequeues(T item) {
        return 0;
    }
}
