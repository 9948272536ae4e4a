package dev.kubeloop.api;

import java.util.Objects;

/**
 * How {@link ReconcileContext#apply(io.fabric8.kubernetes.api.model.HasMetadata, ApplyOptions)}
 * writes one object. Immutable; start from {@link #defaults()}.
 *
 * @param fieldManager the server-side apply field manager; null: the controller's
 * @param owned whether the object is the primary's: it gets a controller owner reference and the
 *     label that lets pruning delete it once a reconcile no longer applies it
 */
public record ApplyOptions(String fieldManager, boolean owned) {

    private static final ApplyOptions DEFAULTS = new ApplyOptions(null, true);

    /** The controller's field manager; owned by the primary when its type is one the reconciler owns. */
    public static ApplyOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Apply as another field manager, e.g. one per primary for a shared object every primary writes
     * a part of: each manager owns only the fields it applies, so neither removes the other's, and
     * there is no resourceVersion to contend on. At most 128 characters.
     */
    public ApplyOptions fieldManager(String fieldManager) {
        return new ApplyOptions(Objects.requireNonNull(fieldManager, "fieldManager"), owned);
    }

    /** Not the primary's: no owner reference, no pruning label (a shared object, say). */
    public ApplyOptions notOwned() {
        return new ApplyOptions(fieldManager, false);
    }
}
