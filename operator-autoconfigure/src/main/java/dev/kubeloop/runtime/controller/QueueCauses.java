package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.predicate.Predicates;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.queue.WorkQueueStats;
import dev.kubeloop.runtime.handler.EventHandler;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Why each queued key was queued, and since when it was due: for the reconcile's span only, so
 * only kept while tracing is on (with {@code Tracing.OFF} no instance exists and the handlers and
 * the queue are not wrapped).
 *
 * <p>Bounded like the queue itself: at most one {@link Cause} per key that was added and not yet
 * taken by a worker ({@link #take} removes it). Causes merge as the queue merges adds: the one due
 * first wins (a change arriving during a ten-minute requeue delay makes the key due now, and it is
 * the change that is reported), so later events of a key already due cost a map lookup.
 *
 * <p>The informer side: {@link #recording} wraps a handler so that while it runs on the
 * informer's thread the event (source, object, type) is known to {@link #queue}'s adds through a
 * thread-local; an add outside any event is a {@code trigger} (a {@code ReconcileTrigger} or the
 * runtime's own enqueue). The worker side notes requeues and retries itself.
 *
 * <p>State ownership: {@code pending} is a concurrent map written by informer threads, triggers and
 * workers; {@code current} is confined to the informer thread that set it.
 */
final class QueueCauses {

    /** One reason, with the event's object kept to name it only if the key is traced. */
    record Cause(String what, HasMetadata object, String event, long dueNanos, String parent) {

        Cause(String what, HasMetadata object, String event, long dueNanos) {
            this(what, object, event, dueNanos, null);
        }

        /** {@code ConfigMap team-a/shop update}, or null for the primary's own events and the runtime's. */
        String describeObject() {
            if (object == null || "change".equals(what) || "initial-list".equals(what) || "resync".equals(what)) {
                return null;
            }
            String namespace = object.getMetadata().getNamespace();
            return object.getKind() + " " + (namespace == null ? "" : namespace + "/") + object.getMetadata().getName()
                    + " " + event;
        }
    }

    /** What the informer thread is delivering right now. */
    private record Event(String source, HasMetadata object, String type) {
    }

    static final Cause UNKNOWN = new Cause("unknown", null, null, 0);

    private final ConcurrentHashMap<ObjectKey, Cause> pending = new ConcurrentHashMap<>();
    private final ThreadLocal<Event> current = new ThreadLocal<>();

    /**
     * Notes {@code what} for {@code key}, due after {@code delay}; the earliest due cause stays.
     *
     * @param parent the traceparent of the reconcile this one continues (a retry's), or null
     */
    void note(ObjectKey key, String what, Duration delay, String parent) {
        note(key, new Cause(what, null, null, System.nanoTime() + delay.toNanos(), parent));
    }

    private void note(ObjectKey key, Cause cause) {
        pending.merge(key, cause, (old, fresh) -> fresh.dueNanos() - old.dueNanos() < 0 ? fresh : old);
    }

    /** The cause of {@code key}, which a worker just took; {@link #UNKNOWN} if none was noted. */
    Cause take(ObjectKey key) {
        Cause cause = pending.remove(key);
        return cause == null ? UNKNOWN : cause;
    }

    /** How many keys have a cause waiting (for tests: bounded by the queued keys). */
    int size() {
        return pending.size();
    }

    /**
     * {@code handler}, telling this object which event it delivers.
     *
     * @param source {@code primary}, {@code owned} or {@code watched}
     */
    <T extends HasMetadata> EventHandler<T> recording(String source, EventHandler<T> handler) {
        return new EventHandler<>() {
            @Override
            public void onAdd(T object, boolean initialList) {
                deliver(new Event(initialList ? "initial-list" : source, object, "add"),
                        () -> handler.onAdd(object, initialList));
            }

            @Override
            public void onUpdate(T oldObject, T newObject) {
                String what = Predicates.isResync(oldObject, newObject) ? "resync" : source;
                deliver(new Event(what, newObject, "update"), () -> handler.onUpdate(oldObject, newObject));
            }

            @Override
            public void onDelete(T object) {
                deliver(new Event(source, object, "delete"), () -> handler.onDelete(object));
            }
        };
    }

    private void deliver(Event event, Runnable handler) {
        current.set(event);
        try {
            handler.run();
        } finally {
            current.remove();
        }
    }

    /** {@code queue}, noting each add's cause first. */
    WorkQueue<ObjectKey> queue(WorkQueue<ObjectKey> queue) {
        return new Noting(queue);
    }

    /** A queue whose adds note their cause; everything else goes straight through. */
    private final class Noting implements WorkQueue<ObjectKey> {

        private final WorkQueue<ObjectKey> queue;

        Noting(WorkQueue<ObjectKey> queue) {
            this.queue = queue;
        }

        private void noteCurrent(ObjectKey key, long delayNanos) {
            Event event = current.get();
            long due = System.nanoTime() + delayNanos;
            if (event == null) {
                note(key, new Cause("trigger", null, null, due));
            } else {
                String what = "primary".equals(event.source()) ? "change" : event.source();
                note(key, new Cause(what, event.object(), event.type(), due));
            }
        }

        @Override
        public void add(ObjectKey item, int priority) {
            noteCurrent(item, 0);
            queue.add(item, priority);
        }

        @Override
        public void addAfter(ObjectKey item, Duration delay, int priority) {
            noteCurrent(item, delay.toNanos());
            queue.addAfter(item, delay, priority);
        }

        @Override
        public void addRateLimited(ObjectKey item, int priority) {
            // the delay is the limiter's to choose; the key is due no earlier than now
            noteCurrent(item, 0);
            queue.addRateLimited(item, priority);
        }

        @Override
        public void forget(ObjectKey item) {
            queue.forget(item);
        }

        @Override
        public int numRequeues(ObjectKey item) {
            return queue.numRequeues(item);
        }

        @Override
        public Optional<Prioritized<ObjectKey>> getWithPriority() throws InterruptedException {
            return queue.getWithPriority();
        }

        @Override
        public void done(ObjectKey item) {
            queue.done(item);
        }

        @Override
        public int len() {
            return queue.len();
        }

        @Override
        public void shutDown() {
            queue.shutDown();
        }

        @Override
        public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
            return queue.shutDownWithDrain(timeout);
        }

        @Override
        public boolean isShuttingDown() {
            return queue.isShuttingDown();
        }

        @Override
        public WorkQueueStats stats() {
            return queue.stats();
        }
    }
}
