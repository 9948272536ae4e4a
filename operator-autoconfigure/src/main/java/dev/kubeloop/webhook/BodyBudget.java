package dev.kubeloop.webhook;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of large request bodies the server holds at once, from their first byte to the end
 * of their parse: what bounds the heap under many large requests. A body over {@link #SMALL}
 * reserves its declared length (or the body limit when it is chunked) before it is read; a
 * reservation that does not fit is refused and the request answered 503 without reading its body
 * into memory. Small bodies (every AdmissionReview of an ordinary object) never wait for it: they
 * are bounded by the connection limit and the webhook threads. A body larger than the whole
 * budget is admitted when nothing else holds any of it, so that a low budget never refuses a
 * legitimate object for ever.
 *
 * <p>State ownership: {@code used} and {@code peak} are atomics, reserved on event loops and
 * released on event loops or webhook threads.
 */
final class BodyBudget {

    /** Bodies up to this size are not counted: ordinary AdmissionReviews are a few KiB. */
    static final int SMALL = 64 * 1024;

    /**
     * What one JSON value of a body weighs against the budget, at least: ordinary Kubernetes JSON
     * has 16 bytes or more of text per value (names, quotes, values), so its weight is its length;
     * a body denser in values, whose tree costs more per byte ({@code [],}: 3 bytes, an array node
     * of ~50), weighs by its values. Without it one valid review of 7 MiB of {@code [[],[],...]}
     * (2.4 million array nodes) took a 384 MiB heap to OutOfMemoryError (HostileBodiesMain, idle
     * machine, 2026-11-26).
     */
    static final int BYTES_PER_VALUE = 16;

    /**
     * Bodies shorter than this cannot weigh more than {@link #SMALL} however dense (3 bytes a value
     * at the densest): they are not counted.
     */
    static final int DENSE_ENOUGH_TO_COUNT = SMALL * 3 / BYTES_PER_VALUE;

    private final long capacity;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();

    BodyBudget(long capacity) {
        this.capacity = capacity;
    }

    /** Reserves {@code bytes}; false if they do not fit beside what is held now. */
    boolean tryReserve(long bytes) {
        while (true) {
            long now = used.get();
            if (now > 0 && now + bytes > capacity) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                peak.accumulateAndGet(now + bytes, Math::max);
                return true;
            }
        }
    }

    void release(long bytes) {
        if (bytes > 0) {
            used.addAndGet(-bytes);
        }
    }

    long capacity() {
        return capacity;
    }

    /** Bytes reserved now. */
    long inUse() {
        return used.get();
    }

    /** The most ever reserved at once (for tests: what the heap had to hold of bodies). */
    long peak() {
        return peak.get();
    }
}
