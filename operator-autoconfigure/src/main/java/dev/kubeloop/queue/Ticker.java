package dev.kubeloop.queue;

/**
 * A source of monotonic nanoseconds, so that tests can drive time by hand.
 *
 * <p>Implementations must be thread-safe. Values are only meaningful relative to each other.
 */
@FunctionalInterface
public interface Ticker {

    /** Current time in nanoseconds on an arbitrary, monotonic origin. */
    long read();

    /** The system ticker backed by {@link System#nanoTime()}. */
    static Ticker system() {
        return System::nanoTime;
    }
}
