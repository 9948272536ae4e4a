package dev.kubeloop.runtime.event;

import dev.kubeloop.api.ApiRefusal;
import dev.kubeloop.api.EventRecorder;
import dev.kubeloop.queue.Ticker;
import dev.kubeloop.runtime.NamedThreadFactory;
import dev.kubeloop.runtime.event.EventCorrelator.Aggregate;
import dev.kubeloop.runtime.event.EventCorrelator.PendingEvent;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes core/v1 Events for all controllers of a manager, in the background on one thread
 * ({@code kubeloop-events}), so that recording an event never blocks or fails a reconcile.
 * Recorders hand events over through a bounded queue and drop them when it is full; the writer
 * thread runs each through the {@link EventCorrelator} (spam filter, aggregation) and then creates
 * an Event or bumps the count of an earlier identical one.
 *
 * <p>A namespace being deleted refuses every create, Events included: the first refusal is one
 * DEBUG line, and Events about objects in that namespace are then dropped here for
 * {@link #TERMINATING_HOLD} (then one is tried again: a namespace of that name may exist anew),
 * instead of one failing request each while cleanups there retry.
 *
 * <p>State ownership: the correlator, the "write failures already logged" flag and the namespaces
 * seen being deleted belong to the writer thread; the queue is the only state shared with recorders. Lifecycle: {@link #start()}
 * once, {@link #close(Duration)} once; events recorded before start wait in the queue, events
 * recorded after close are dropped.
 */
public final class EventBroadcaster {

    /** How many events about one object a controller records at once before the spam filter limits it. */
    public static final int SPAM_FILTER_BURST = EventCorrelator.BURST;

    private static final Logger log = LoggerFactory.getLogger(EventBroadcaster.class);
    private static final int CAPACITY = 1024;
    private static final int MAX_MESSAGE_LENGTH = 1024;
    /** Where Events about cluster-scoped objects go, as in client-go. */
    private static final String CLUSTER_EVENTS_NAMESPACE = "default";
    /** How long Events for a namespace seen being deleted are dropped without a request. */
    static final Duration TERMINATING_HOLD = Duration.ofMinutes(1);
    private static final PendingEvent POISON = new PendingEvent("", new ObjectReference(), "", "", "");

    private final KubernetesClient client;
    private final BlockingQueue<PendingEvent> pending = new LinkedBlockingQueue<>(CAPACITY);
    private final EventCorrelator correlator;
    private final Thread writer;
    private volatile boolean closed;
    private boolean failureLogged; // writer thread only
    /** Namespaces whose create of an Event was refused as being deleted, with when (nanoTime); writer thread only. */
    private final Map<String, Long> terminatingSince = new HashMap<>();

    public EventBroadcaster(KubernetesClient client) {
        this(client, new EventCorrelator(Ticker.system()));
    }

    EventBroadcaster(KubernetesClient client, EventCorrelator correlator) {
        this.client = client;
        this.correlator = correlator;
        this.writer = NamedThreadFactory.single("kubeloop-events", this::run);
    }

    public void start() {
        writer.start();
    }

    /** A recorder whose events name {@code component} (the controller) as their source. */
    public EventRecorder recorderFor(String component) {
        return new EventRecorder() {
            @Override
            public void normal(HasMetadata regarding, String reason, String message) {
                record(component, regarding, "Normal", reason, message);
            }

            @Override
            public void warning(HasMetadata regarding, String reason, String message) {
                record(component, regarding, "Warning", reason, message);
            }
        };
    }

    private void record(String component, HasMetadata regarding, String type, String reason, String message) {
        try {
            if (closed || regarding == null || regarding.getMetadata() == null) {
                return;
            }
            String text = message == null ? "" : message;
            if (text.length() > MAX_MESSAGE_LENGTH) {
                text = text.substring(0, MAX_MESSAGE_LENGTH - 3) + "...";
            }
            PendingEvent event = new PendingEvent(component, reference(regarding), type,
                    Objects.requireNonNullElse(reason, ""), text);
            if (!pending.offer(event)) {
                log.debug("Event dropped, queue full: controller={} object={} reason={}", component,
                        regarding.getMetadata().getName(), reason);
            }
        } catch (RuntimeException e) {
            log.debug("Event not recorded: controller={} reason={}: {}", component, reason, e.toString());
        }
    }

    /**
     * Stops accepting events and writes what is queued, for at most {@code timeout}; then
     * abandons the rest.
     */
    public void close(Duration timeout) throws InterruptedException {
        closed = true;
        if (!writer.isAlive()) {
            pending.clear();
            return;
        }
        if (!pending.offer(POISON)) {
            writer.interrupt();
        }
        writer.join(Math.max(1, timeout.toMillis()));
        if (writer.isAlive()) {
            writer.interrupt();
            writer.join(1000);
        }
    }

    private void run() {
        while (true) {
            PendingEvent event;
            try {
                event = pending.take();
            } catch (InterruptedException e) {
                return;
            }
            if (event == POISON) {
                return;
            }
            try {
                write(event);
            } catch (RuntimeException e) {
                if (!failureLogged) {
                    failureLogged = true;
                    log.warn("Cannot write Events (further failures are logged at debug level): "
                            + "controller={} reason={}: {}", event.component(), event.reason(), e.getMessage());
                } else {
                    log.debug("Cannot write Event: controller={} reason={}: {}", event.component(), event.reason(),
                            e.getMessage());
                }
            } catch (Error e) {
                // an Error (a linkage or assertion error in a serializer, a stack overflow) would end this
                // thread silently and every Event after it would be lost: log it, drop the event, go on
                log.error("Writing an Event failed with an error; the event is dropped and the writer goes on: "
                        + "controller={} reason={}", event.component(), event.reason(), e);
            }
        }
    }

    private void write(PendingEvent event) {
        if (!correlator.allow(event)) {
            log.debug("Event dropped by the spam filter: controller={} object={} reason={}", event.component(),
                    event.regarding().getName(), event.reason());
            return;
        }
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        Aggregate existing = correlator.existing(event);
        if (existing != null) {
            int count = existing.increment();
            Map<String, Object> patch = new LinkedHashMap<>();
            patch.put("count", count);
            patch.put("lastTimestamp", now);
            try {
                // patched through an object naming it: by name alone, fabric8 would GET it first, which the
                // operator's RBAC does not grant (events: create and patch)
                client.resource(existing.reference()).patch(PatchContext.of(PatchType.JSON_MERGE),
                        client.getKubernetesSerialization().asJson(patch));
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                    throw e;
                }
                correlator.forget(event); // expired (event TTL): start a new Event
            }
        }
        Event created = create(event, now);
        if (created != null) {
            correlator.written(event, created);
        }
    }

    /** Creates the Event; null when its namespace is being deleted (then nothing more is sent there for a while). */
    private Event create(PendingEvent event, String now) {
        Event desired = newEvent(event, now);
        String namespace = desired.getMetadata().getNamespace();
        Long since = terminatingSince.get(namespace);
        if (since != null && System.nanoTime() - since < TERMINATING_HOLD.toNanos()) {
            return null;
        }
        terminatingSince.remove(namespace);
        try {
            return client.resource(desired).create();
        } catch (KubernetesClientException e) {
            if (ApiRefusal.of(e).filter(ApiRefusal::namespaceTerminating).isEmpty()) {
                throw e;
            }
            terminatingSince.put(namespace, System.nanoTime());
            log.debug("Events not written while namespace {} is being deleted (dropped for {} s): controller={} "
                    + "object={} reason={}", namespace, TERMINATING_HOLD.toSeconds(), event.component(),
                    event.regarding().getName(), event.reason());
            return null;
        }
    }

    private static Event newEvent(PendingEvent event, String now) {
        ObjectReference regarding = event.regarding();
        String namespace = regarding.getNamespace() == null ? CLUSTER_EVENTS_NAMESPACE : regarding.getNamespace();
        return new EventBuilder()
                .withNewMetadata()
                .withName(regarding.getName() + "." + Long.toHexString(System.currentTimeMillis() * 1_000_000L
                        + System.nanoTime() % 1_000_000L))
                .withNamespace(namespace)
                .endMetadata()
                .withInvolvedObject(regarding)
                .withType(event.type())
                .withReason(event.reason())
                .withMessage(event.message())
                .withCount(1)
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withNewSource().withComponent(event.component()).endSource()
                .build();
    }

    private static ObjectReference reference(HasMetadata object) {
        Class<?> type = object.getClass();
        return new ObjectReferenceBuilder()
                .withApiVersion(
                        Objects.requireNonNullElseGet(object.getApiVersion(), () -> HasMetadata.getApiVersion(type)))
                .withKind(Objects.requireNonNullElseGet(object.getKind(), () -> HasMetadata.getKind(type)))
                .withNamespace(object.getMetadata().getNamespace())
                .withName(object.getMetadata().getName())
                .withUid(object.getMetadata().getUid())
                .withResourceVersion(object.getMetadata().getResourceVersion())
                .build();
    }
}
