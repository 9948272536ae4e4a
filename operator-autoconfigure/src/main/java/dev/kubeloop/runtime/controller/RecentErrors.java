package dev.kubeloop.runtime.controller;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The last {@code capacity} failed reconciles of one controller, oldest dropped first: a bounded
 * ring whatever the error rate, so introspection never costs more memory than configured.
 *
 * <p>Thread-safe: workers add, readers snapshot, both under this object's monitor. Errors are
 * rare next to reconciles, so one lock is cheaper than anything cleverer.
 */
final class RecentErrors {

    private final int capacity;
    // guarded by this
    private final ArrayDeque<ControllerStatus.RecentError> errors;

    RecentErrors(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative, was " + capacity);
        }
        this.capacity = capacity;
        this.errors = new ArrayDeque<>(Math.min(capacity, 64));
    }

    synchronized void add(ControllerStatus.RecentError error) {
        if (capacity == 0) {
            return;
        }
        if (errors.size() == capacity) {
            errors.removeFirst();
        }
        errors.addLast(error);
    }

    /** Newest first. */
    synchronized List<ControllerStatus.RecentError> snapshot() {
        List<ControllerStatus.RecentError> result = new ArrayList<>(errors.size());
        for (Iterator<ControllerStatus.RecentError> it = errors.descendingIterator(); it.hasNext(); ) {
            result.add(it.next());
        }
        return result;
    }
}
