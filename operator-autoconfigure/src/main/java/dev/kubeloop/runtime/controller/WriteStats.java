package dev.kubeloop.runtime.controller;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one controller's writes and read-your-writes have done, for {@link Controller#status()}
 * (the metrics get the same through the {@link ControllerListener}). State ownership: adders and
 * atomics, written by workers and informer threads, read by anyone; the maps are filled at
 * construction and never changed.
 */
final class WriteStats {

    private final Map<WriteOperation, LongAdder> sent = new EnumMap<>(WriteOperation.class);
    private final Map<WriteOperation, LongAdder> skipped = new EnumMap<>(WriteOperation.class);
    private final LongAdder staleReadsAvoided = new LongAdder();
    private final LongAdder staleReadsNotAvoided = new LongAdder();
    private final LongAdder cacheCatchUps = new LongAdder();
    private final AtomicLong lastCacheLagNanos = new AtomicLong();
    private final AtomicLong maxCacheLagNanos = new AtomicLong();

    WriteStats() {
        for (WriteOperation operation : WriteOperation.values()) {
            sent.put(operation, new LongAdder());
            skipped.put(operation, new LongAdder());
        }
    }

    void sent(WriteOperation operation) {
        sent.get(operation).increment();
    }

    void skipped(WriteOperation operation) {
        skipped.get(operation).increment();
    }

    void staleRead(boolean avoided) {
        (avoided ? staleReadsAvoided : staleReadsNotAvoided).increment();
    }

    void cacheCaughtUp(Duration lag) {
        cacheCatchUps.increment();
        lastCacheLagNanos.set(lag.toNanos());
        maxCacheLagNanos.accumulateAndGet(lag.toNanos(), Math::max);
    }

    ControllerStatus.Writes snapshot(int pending) {
        Map<WriteOperation, Long> sentCounts = new EnumMap<>(WriteOperation.class);
        Map<WriteOperation, Long> skippedCounts = new EnumMap<>(WriteOperation.class);
        sent.forEach((operation, count) -> sentCounts.put(operation, count.sum()));
        skipped.forEach((operation, count) -> skippedCounts.put(operation, count.sum()));
        return new ControllerStatus.Writes(sentCounts, skippedCounts, staleReadsAvoided.sum(),
                staleReadsNotAvoided.sum(), pending, cacheCatchUps.sum(), Duration.ofNanos(lastCacheLagNanos.get()),
                Duration.ofNanos(maxCacheLagNanos.get()));
    }
}
