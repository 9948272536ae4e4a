package dev.kubeloop.benchmarks.compare.common;

import java.time.Instant;

/**
 * Wall-clock time in epoch nanoseconds (microsecond resolution on Linux). The harness compares
 * times taken in different JVMs (the driver stamps an update, the contender's reconciler reads the
 * stamp), which {@link System#nanoTime()} does not promise; both processes run on one machine, so
 * they share this clock.
 */
public final class WallClock {

    private WallClock() {
    }

    public static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
