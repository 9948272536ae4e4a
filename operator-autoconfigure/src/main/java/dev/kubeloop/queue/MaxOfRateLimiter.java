package dev.kubeloop.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Combines rate limiters by taking the longest delay any of them asks for; every limiter sees
 * every call, so each keeps its own state current. Thread-safe if its limiters are.
 */
public final class MaxOfRateLimiter<T> implements RateLimiter<T> {

    private final List<RateLimiter<T>> limiters;

    @SafeVarargs
    public MaxOfRateLimiter(RateLimiter<T>... limiters) {
        if (limiters.length == 0) {
            throw new IllegalArgumentException("at least one rate limiter is required");
        }
        List<RateLimiter<T>> copy = new ArrayList<>(limiters.length);
        for (RateLimiter<T> limiter : limiters) {
            copy.add(Objects.requireNonNull(limiter, "limiter"));
        }
        this.limiters = List.copyOf(copy);
    }

    @Override
    public Duration when(T item) {
        Duration longest = Duration.ZERO;
        for (RateLimiter<T> limiter : limiters) {
            Duration delay = limiter.when(item);
            if (delay.compareTo(longest) > 0) {
                longest = delay;
            }
        }
        return longest;
    }

    @Override
    public void forget(T item) {
        limiters.forEach(limiter -> limiter.forget(item));
    }

    @Override
    public int numRequeues(T item) {
        int most = 0;
        for (RateLimiter<T> limiter : limiters) {
            most = Math.max(most, limiter.numRequeues(item));
        }
        return most;
    }
}
