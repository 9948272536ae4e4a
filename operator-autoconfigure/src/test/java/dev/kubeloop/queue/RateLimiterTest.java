package dev.kubeloop.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RateLimiterTest {

    private static final Duration BASE = Duration.ofMillis(5);
    private static final Duration MAX = Duration.ofSeconds(1000);

    static Stream<Arguments> exponentialBackoff() {
        return Stream.of(
                Arguments.of(1, Duration.ofMillis(5)),
                Arguments.of(2, Duration.ofMillis(10)),
                Arguments.of(3, Duration.ofMillis(20)),
                Arguments.of(10, Duration.ofMillis(2560)),
                Arguments.of(18, Duration.ofMillis(655_360)),
                // 5 ms * 2^18 = 1310.72 s: capped from here on
                Arguments.of(19, MAX),
                Arguments.of(64, MAX),
                Arguments.of(1000, MAX));
    }

    @ParameterizedTest(name = "failure #{0} waits {1}")
    @MethodSource("exponentialBackoff")
    void exponentialBackoffDoublesFromBaseToMax(int failures, Duration expected) {
        var limiter = new ExponentialBackoffRateLimiter<String>(BASE, MAX);
        Duration last = null;
        for (int i = 0; i < failures; i++) {
            last = limiter.when("a");
        }
        assertThat(last).isEqualTo(expected);
        assertThat(limiter.numRequeues("a")).isEqualTo(failures);
    }

    @Test
    void exponentialBackoffNeverOverflows() {
        var limiter = new ExponentialBackoffRateLimiter<String>(Duration.ofDays(365 * 100), Duration.ofDays(365 * 200));
        for (int exponent : new int[] {0, 1, 2, 30, 62, 63, 64, Integer.MAX_VALUE}) {
            assertThat(limiter.backoffNanos(exponent)).as("exponent %d", exponent).isPositive();
        }
        assertThat(limiter.backoffNanos(Integer.MAX_VALUE)).isEqualTo(Duration.ofDays(365 * 200).toNanos());
    }

    @Test
    void forgetStartsTheBackoffOverForThatItemOnly() {
        var limiter = new ExponentialBackoffRateLimiter<String>(BASE, MAX);
        limiter.when("a");
        limiter.when("a");
        limiter.when("b");
        limiter.forget("a");
        assertThat(limiter.numRequeues("a")).isZero();
        assertThat(limiter.when("a")).isEqualTo(BASE);
        assertThat(limiter.when("b")).isEqualTo(BASE.multipliedBy(2));
    }

    @Test
    void tokenBucketAllowsTheBurstThenSpacesOutAtQps() {
        ManualTicker ticker = new ManualTicker();
        var limiter = new TokenBucketRateLimiter<String>(10, 100, ticker);
        List<Duration> delays = new ArrayList<>();
        for (int i = 0; i < 103; i++) {
            delays.add(limiter.when("item-" + i));
        }
        assertThat(delays.subList(0, 100)).containsOnly(Duration.ZERO);
        assertThat(delays.subList(100, 103))
                .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(300));
    }

    @Test
    void tokenBucketRefillsOverTimeUpToTheBurst() {
        ManualTicker ticker = new ManualTicker();
        var limiter = new TokenBucketRateLimiter<String>(10, 2, ticker);
        limiter.when("a");
        limiter.when("a");
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(100));
        ticker.advance(Duration.ofSeconds(10)); // pays the promised token, then refills to burst only
        assertThat(limiter.when("a")).isZero();
        assertThat(limiter.when("a")).isZero();
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void tokenBucketRejectsNonsense() {
        assertThatThrownBy(() -> new TokenBucketRateLimiter<String>(0, 1)).hasMessageContaining("qps");
        assertThatThrownBy(() -> new TokenBucketRateLimiter<String>(Double.NaN, 1)).hasMessageContaining("qps");
        assertThatThrownBy(() -> new TokenBucketRateLimiter<String>(1, 0)).hasMessageContaining("burst");
        assertThatThrownBy(() -> new ExponentialBackoffRateLimiter<String>(Duration.ZERO, MAX))
                .hasMessageContaining("base");
        assertThatThrownBy(() -> new ExponentialBackoffRateLimiter<String>(MAX, BASE)).hasMessageContaining("max");
    }

    @Test
    void maxOfTakesTheLongestDelayAndForgetsInAll() {
        ManualTicker ticker = new ManualTicker();
        var limiter = new MaxOfRateLimiter<String>(
                new ExponentialBackoffRateLimiter<>(BASE, MAX), new TokenBucketRateLimiter<>(10, 2, ticker));
        assertThat(limiter.when("a")).isEqualTo(BASE);              // exponential 5 ms, bucket 0
        assertThat(limiter.when("b")).isEqualTo(BASE);              // exponential 5 ms, bucket 0
        assertThat(limiter.when("c")).isEqualTo(Duration.ofMillis(100)); // bucket empty: 100 ms wins
        assertThat(limiter.numRequeues("a")).isEqualTo(1);
        limiter.forget("a");
        assertThat(limiter.numRequeues("a")).isZero();
    }

    @Test
    void defaultControllerRateLimiterIsClientGos() {
        RateLimiter<String> limiter = RateLimiter.defaultControllerRateLimiter();
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
        for (int i = 0; i < 30; i++) {
            limiter.when("a");
        }
        assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(1000));
        // The bucket (burst 100) is exhausted by now: a fresh item waits for a token, not 5 ms.
        for (int i = 0; i < 100; i++) {
            limiter.when("burst-" + i);
        }
        assertThat(limiter.when("fresh")).isGreaterThan(Duration.ofMillis(5));
    }
}
