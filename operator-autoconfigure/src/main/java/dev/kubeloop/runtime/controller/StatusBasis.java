package dev.kubeloop.runtime.controller;

import dev.kubeloop.api.ObjectKey;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What one reconcile read from the caches, and whether a change of its own made a read out of date:
 * whether the last status it wrote (or found as wanted) may describe the world before that change.
 * controller-runtime's order does so (kubebuilder's CronJob: it reads its Jobs, writes the status
 * listing them, then creates a Job), and the change's echo reconciles again to correct it; Kubeloop's
 * echoes queue nothing, so the runtime queues that reconcile itself ({@link StaleStatusRequeues}).
 *
 * <p>A read is out of date once the reconcile changes (applies, deletes or prunes) an object the
 * read would have returned, until the same read is made again: a get, a change of that object; a
 * list of the primary's owned objects ({@code owned}), a change of an owned object of the type; any
 * other list ({@code caches()}: a namespace, labels, an index), a change of any object of the type.
 * The status is stale when, at its write, one of the reads is out of date, or when a change after it
 * makes one of the reads made before it out of date. A status computed after the changes, or from no
 * read at all, is not.
 *
 * <p>Confined to the worker thread running the reconcile, like the reconcile's context.
 */
final class StatusBasis {

    /** One read: an object by key, the primary's owned objects of a type, or any list of a type. */
    private record Read(Class<?> type, @Nullable ObjectKey key, boolean ownedOnly) {

        boolean returns(Class<?> changedType, ObjectKey changedKey, boolean changedOwned) {
            return type.equals(changedType) && (key != null ? key.equals(changedKey) : !ownedOnly || changedOwned);
        }
    }

    /** Each distinct read, and whether a change of this reconcile's has made it out of date since it was last made. */
    private final Map<Read, Boolean> reads = new HashMap<>();
    /** The reads made before the last status write; null before any. */
    private @Nullable Set<Read> beforeStatus;
    private boolean statusMayBeStale;

    void readOne(Class<?> type, ObjectKey key) {
        reads.put(new Read(type, key, false), false);
    }

    void readOwned(Class<?> type) {
        reads.put(new Read(type, null, true), false);
    }

    void readAny(Class<?> type) {
        reads.put(new Read(type, null, false), false);
    }

    /** A status written, or found as wanted: from what has been read so far. */
    void statusWritten() {
        if (reads.isEmpty()) {
            // a status from no read (every status of a reconciler that reads nothing) describes no read
            statusMayBeStale = false;
            beforeStatus = Set.of();
            return;
        }
        statusMayBeStale = reads.containsValue(true);
        beforeStatus = Set.copyOf(reads.keySet());
    }

    /** An object this reconcile changed: of {@code type}, at {@code key}, {@code owned} by the primary or not. */
    void changed(Class<?> type, ObjectKey key, boolean owned) {
        if (reads.isEmpty()) {
            return;
        }
        reads.replaceAll((read, outOfDate) -> outOfDate || read.returns(type, key, owned));
        if (beforeStatus != null && !statusMayBeStale) {
            statusMayBeStale = beforeStatus.stream().anyMatch(read -> read.returns(type, key, owned));
        }
    }

    /** Whether the last status may describe a read made out of date by this reconcile's own change. */
    boolean statusMayBeStale() {
        return statusMayBeStale;
    }
}
