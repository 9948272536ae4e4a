package dev.kubeloop.testing;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/** Awaitility with the suite's deadline and a short poll interval: waits on conditions, never sleeps. */
public final class Eventually {

    public static final Duration DEADLINE = Duration.ofSeconds(30);
    public static final long DEADLINE_MILLIS = DEADLINE.toMillis();

    private Eventually() {
    }

    public static ConditionFactory eventually() {
        return Awaitility.await().atMost(DEADLINE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10));
    }
}
