package dev.kubeloop.webhook;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What the webhook server's transport is doing, for metrics and health: open connections, TLS
 * handshakes in progress, requests waiting for a webhook thread and how long the oldest has
 * waited, connections the server closed by {@link ConnectionEnd}. A wedged server shows here:
 * handshakes or waiting requests piling up, or the oldest waiting for seconds.
 *
 * <p>State ownership: the counters are written by the server's event loops and read by any thread
 * (atomics, adders); the waiting figures are read from the request pool when asked.
 */
public final class WebhookServerStats {

    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger handshakes = new AtomicInteger();
    private final Map<ConnectionEnd, LongAdder> closed = new EnumMap<>(ConnectionEnd.class);
    private volatile Supplier<Integer> waiting = () -> 0;
    private volatile Supplier<Duration> oldestWait = () -> Duration.ZERO;

    WebhookServerStats() {
        for (ConnectionEnd end : ConnectionEnd.values()) {
            closed.put(end, new LongAdder());
        }
    }

    /** Open connections (in handshake, idle, or serving a request). */
    public int connections() {
        return connections.get();
    }

    /** Connections whose TLS handshake has not completed yet. */
    public int handshakesInProgress() {
        return handshakes.get();
    }

    /** Requests received whole and waiting for a webhook thread. */
    public int requestsWaiting() {
        return waiting.get();
    }

    /** How long the request waiting longest for a webhook thread has waited; zero when none waits. */
    public Duration oldestWait() {
        return oldestWait.get();
    }

    /** Connections the server closed for {@code end}, since it was built. */
    public long closed(ConnectionEnd end) {
        return closed.get(end).sum();
    }

    /** One line for logs and assertion messages. */
    @Override
    public String toString() {
        StringBuilder closes = new StringBuilder();
        closed.forEach((end, count) -> {
            if (count.sum() > 0) {
                closes.append(closes.length() == 0 ? "" : ", ").append(end.tag()).append(' ').append(count.sum());
            }
        });
        return "connections " + connections() + ", handshakes " + handshakesInProgress() + ", waiting "
                + requestsWaiting() + ", closed {" + closes + "}";
    }

    void connectionOpened() {
        connections.incrementAndGet();
    }

    void connectionClosed() {
        connections.decrementAndGet();
    }

    void handshakeStarted() {
        handshakes.incrementAndGet();
    }

    void handshakeEnded() {
        handshakes.decrementAndGet();
    }

    void closedFor(ConnectionEnd end) {
        closed.get(end).increment();
    }

    void waitingFrom(Supplier<Integer> waiting, Supplier<Duration> oldestWait) {
        this.waiting = waiting;
        this.oldestWait = oldestWait;
    }
}
