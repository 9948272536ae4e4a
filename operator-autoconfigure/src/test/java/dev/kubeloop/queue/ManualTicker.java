package dev.kubeloop.queue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker that only moves when a test advances it. */
final class ManualTicker implements Ticker {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    @Override
    public long read() {
        return nanos.get();
    }

    void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }
}
