package dev.kubeloop.runtime.event;

import dev.kubeloop.queue.Ticker;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Decides what becomes of each recorded event, after client-go's {@code EventCorrelator}:
 *
 * <ul>
 *   <li><b>Spam filter.</b> A token bucket per (component, object): {@value #BURST} events at once,
 *       then one per five minutes. Events over the limit are dropped, so a reconcile stuck in a hot
 *       loop cannot flood the API server (or etcd) with Events.
 *   <li><b>Aggregation.</b> An event identical to an earlier one (same component, object, type,
 *       reason and message) bumps the earlier Event's {@code count} and {@code lastTimestamp}
 *       instead of creating a new Event.
 * </ul>
 *
 * Both maps are LRU-bounded ({@value #MAX_ENTRIES} entries), as in client-go, so memory stays
 * bounded however many objects come and go.
 *
 * <p>Not thread-safe: owned and used by the {@link EventBroadcaster}'s writer thread only.
 */
final class EventCorrelator {

    static final int BURST = 25;
    static final Duration REFILL_INTERVAL = Duration.ofMinutes(5);
    static final int MAX_ENTRIES = 4096;

    private final Ticker ticker;
    private final int burst;
    private final long refillNanos;
    private final Map<String, TokenBucket> buckets = lru();
    private final Map<AggregateKey, Aggregate> aggregates = lru();

    EventCorrelator(Ticker ticker) {
        this(ticker, BURST, REFILL_INTERVAL);
    }

    EventCorrelator(Ticker ticker, int burst, Duration refillInterval) {
        this.ticker = ticker;
        this.burst = burst;
        this.refillNanos = refillInterval.toNanos();
    }

    /** Takes a token for the event's object; false means the event must be dropped. */
    boolean allow(PendingEvent event) {
        String objectKey = event.component() + "/" + objectId(event.regarding());
        long now = ticker.read();
        TokenBucket bucket = buckets.computeIfAbsent(objectKey, k -> new TokenBucket(burst, now));
        return bucket.tryTake(now, burst, refillNanos);
    }

    /** The Event an identical earlier event was written to, if any. */
    Aggregate existing(PendingEvent event) {
        return aggregates.get(AggregateKey.of(event));
    }

    /** Remembers the Event written for {@code event}, for later repeats. */
    void written(PendingEvent event, Event stored) {
        aggregates.put(AggregateKey.of(event), new Aggregate(stored));
    }

    /** Forgets the Event for {@code event}, e.g. after the API server expired it. */
    void forget(PendingEvent event) {
        aggregates.remove(AggregateKey.of(event));
    }

    private static String objectId(ObjectReference ref) {
        return ref.getUid() != null ? ref.getUid()
                : ref.getKind() + "/" + ref.getNamespace() + "/" + ref.getName();
    }

    private static <K, V> Map<K, V> lru() {
        return new LinkedHashMap<>(256, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > MAX_ENTRIES;
            }
        };
    }

    /**
     * The Event that identical events are aggregated into (its namespace and name: all a repeat's
     * patch needs; up to {@value #MAX_ENTRIES} whole Events as the server returned them, with their
     * managedFields, held about 2 KB each), and how often it happened.
     */
    static final class Aggregate {
        private final String namespace;
        private final String name;
        private int count;

        Aggregate(Event event) {
            this.namespace = event.getMetadata().getNamespace();
            this.name = event.getMetadata().getName();
            this.count = event.getCount() == null ? 1 : event.getCount();
        }

        String namespace() {
            return namespace;
        }

        String name() {
            return name;
        }

        /** An Event with only the namespace and name of the one written: enough to address a patch. */
        Event reference() {
            return new EventBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata().build();
        }

        /** Counts one more occurrence and returns the new count. */
        int increment() {
            return ++count;
        }
    }

    private record AggregateKey(String component, String object, String type, String reason, String message) {
        static AggregateKey of(PendingEvent event) {
            return new AggregateKey(event.component(), objectId(event.regarding()), event.type(), event.reason(),
                    event.message());
        }
    }

    /** Tokens refill continuously at one per {@code refillNanos}, up to {@code burst}. */
    private static final class TokenBucket {
        private double tokens;
        private long last;

        TokenBucket(int burst, long now) {
            this.tokens = burst;
            this.last = now;
        }

        boolean tryTake(long now, int burst, long refillNanos) {
            long elapsed = Math.max(0, now - last);
            last = Math.max(now, last);
            tokens = Math.min(burst, tokens + (double) elapsed / refillNanos);
            if (tokens >= 1) {
                tokens -= 1;
                return true;
            }
            return false;
        }
    }

    /** One event waiting to be written; immutable. */
    record PendingEvent(String component, ObjectReference regarding, String type, String reason, String message) {
        PendingEvent {
            Objects.requireNonNull(regarding, "regarding");
        }
    }
}
