package dev.kubeloop.acceptance.cronjob;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The original's fake clock: a time the test sets, in UTC. Set by the test thread, read by the
 * reconciler's workers: one atomic reference.
 */
final class ManualClock extends Clock {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

    void set(Instant instant) {
        now.set(instant);
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the reconciler's zone is UTC in these tests");
    }
}
