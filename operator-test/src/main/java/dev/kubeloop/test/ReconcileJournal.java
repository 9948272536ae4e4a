package dev.kubeloop.test;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.controller.ReconcileReport;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Every reconcile the application's controllers finished during the test, in the order they
 * finished: what a test asserts on to prove which objects were reconciled, how often and how they
 * ended ("only this object was reconciled", "one reconcile, not two", "the third attempt
 * succeeded"). Take a {@link #position()} before the action and read {@link #since} after it,
 * once a wait ({@code awaitReconciled}, {@code awaitIdle}) has let the runtime finish.
 *
 * <p>Thread-safety: the runtime's workers append (one lock, held for an append); tests read
 * copies.
 */
public final class ReconcileJournal {

    /**
     * One finished reconcile.
     *
     * @param controller the controller's name
     * @param key the key reconciled
     * @param outcome how it ended
     * @param attempt 1 on the first try, one more for every retry after a failure
     * @param duration how long it took
     * @param error what the reconciler threw; null when it returned
     */
    public record Entry(String controller, ObjectKey key, ReconcileOutcome outcome, int attempt, Duration duration,
            Throwable error) {

        /** Whether this is a reconcile of {@code object} (its namespace and name). */
        public boolean of(HasMetadata object) {
            return key.equals(ObjectKey.of(object));
        }
    }

    private final List<Entry> entries = new ArrayList<>();

    ReconcileJournal() {
    }

    synchronized void finished(ReconcileReport report) {
        entries.add(new Entry(report.controller(), report.key(), report.outcome(), report.attempt(),
                report.duration(), report.error()));
    }

    /** Every entry so far, oldest first. */
    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    /** How many reconciles have finished so far: a position to read {@link #since} from. */
    public synchronized int position() {
        return entries.size();
    }

    /** The entries after {@code position}, oldest first. */
    public synchronized List<Entry> since(int position) {
        return List.copyOf(entries.subList(Math.min(position, entries.size()), entries.size()));
    }

    /** The reconciles of {@code object} so far, oldest first. */
    public List<Entry> of(HasMetadata object) {
        return entries().stream().filter(entry -> entry.of(object)).toList();
    }

    /** The keys reconciled after {@code position}, each once, in the order first reconciled. */
    public Set<ObjectKey> keysSince(int position) {
        Set<ObjectKey> keys = new LinkedHashSet<>();
        since(position).forEach(entry -> keys.add(entry.key()));
        return keys;
    }
}
