package dev.kubeloop.runtime.controller;

import java.util.Locale;

/** The writes a controller makes through its reconcile contexts and its finalizer, as counted and reported. */
public enum WriteOperation {
    /** Server-side apply of an object ({@code context.apply}). */
    APPLY,
    /** Server-side apply of the primary's status ({@code context.applyStatus}). */
    APPLY_STATUS,
    /** A resourceVersion-locked JSON patch of the primary's status ({@code context.updateStatus}). */
    UPDATE_STATUS,
    /** Adding or removing the controller's finalizer. */
    FINALIZER,
    /** Deleting an owned object a reconcile no longer applies. */
    PRUNE,
    /** Deleting an object the reconciler asked to delete ({@code context.delete}). */
    DELETE;

    /** The {@code operation} label: {@code apply}, {@code apply_status}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
