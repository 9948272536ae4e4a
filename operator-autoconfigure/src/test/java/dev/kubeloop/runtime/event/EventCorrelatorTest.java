package dev.kubeloop.runtime.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.runtime.event.EventCorrelator.PendingEvent;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EventCorrelatorTest {

    private final AtomicLong now = new AtomicLong();
    private final EventCorrelator correlator = new EventCorrelator(now::get);

    @Test
    void anObjectGetsABurstOf25EventsThenOnePerFiveMinutes() {
        for (int i = 0; i < EventCorrelator.BURST; i++) {
            assertThat(correlator.allow(event("a", "attempt " + i))).isTrue();
        }
        assertThat(correlator.allow(event("a", "one too many"))).isFalse();

        now.addAndGet(Duration.ofMinutes(5).toNanos());
        assertThat(correlator.allow(event("a", "after five minutes"))).isTrue();
        assertThat(correlator.allow(event("a", "and again"))).isFalse();
    }

    @Test
    void objectsAreLimitedIndependently() {
        for (int i = 0; i < EventCorrelator.BURST; i++) {
            correlator.allow(event("a", "attempt " + i));
        }

        assertThat(correlator.allow(event("b", "first"))).isTrue();
    }

    @Test
    void identicalEventsAreAggregatedDifferentMessagesAreNot() {
        PendingEvent event = event("a", "created");
        assertThat(correlator.existing(event)).isNull();
        correlator.written(event,
                new EventBuilder().withNewMetadata().withName("a.1").endMetadata().withCount(1).build());

        assertThat(correlator.existing(event("a", "created"))).isNotNull()
                .satisfies(aggregate -> assertThat(aggregate.increment()).isEqualTo(2));
        assertThat(correlator.existing(event("a", "deleted"))).isNull();
        assertThat(correlator.existing(event("b", "created"))).isNull();

        correlator.forget(event);
        assertThat(correlator.existing(event)).isNull();
    }

    @Test
    void anAggregateKeepsOnlyWhereItsEventIsNotTheEventAsTheServerReturnedIt() {
        PendingEvent event = event("a", "created");
        Event stored = new EventBuilder().withNewMetadata().withNamespace("ns").withName("a.1")
                .addNewManagedField().withManager("kubeloop").withOperation("Update").endManagedField().endMetadata()
                .withCount(3).withMessage("created").build();
        WeakReference<Event> returned = new WeakReference<>(stored);
        correlator.written(event, stored);
        stored = null;

        // up to 4,096 aggregates live as long as the operator: whole Events with their managedFields
        // held about 3.6 KB each (11 MiB per replica in the 3,000-Website sharding run)
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (returned.get() != null && System.nanoTime() < deadline) {
            System.gc();
        }
        assertThat(returned.get()).as("the Event the server returned, once the writer dropped it").isNull();
        EventCorrelator.Aggregate aggregate = correlator.existing(event("a", "created"));
        assertThat(aggregate.namespace()).isEqualTo("ns");
        assertThat(aggregate.name()).isEqualTo("a.1");
        assertThat(aggregate.increment()).isEqualTo(4);
    }

    private static PendingEvent event(String object, String message) {
        return new PendingEvent("widget", new ObjectReferenceBuilder().withKind("Widget").withNamespace("ns")
                .withName(object).withUid(object + "-uid").build(), "Normal", "Reason", message);
    }
}
