package dev.kubeloop.api;

import java.util.Objects;

/**
 * How {@link ReconcileContext#apply(io.fabric8.kubernetes.api.model.HasMetadata, ApplyOptions)}
 * writes one object. Immutable; start from {@link #defaults()}.
 *
 * @param fieldManager the server-side apply field manager; null: the controller's
 * @param owned whether the object is the primary's: it gets a controller owner reference and the
 *     label that lets pruning delete it once a reconcile no longer applies it
 * @param adopts whether an existing object that no one controls and that this controller never
 *     applied may be taken over (see {@link #adopt()}); only with {@code owned}
 */
public record ApplyOptions(String fieldManager, boolean owned, boolean adopts) {

    private static final ApplyOptions DEFAULTS = new ApplyOptions(null, true, false);

    public ApplyOptions {
        if (adopts && !owned) {
            throw new IllegalArgumentException("adopt() and notOwned() contradict each other: adopting makes the "
                    + "object the primary's, notOwned() leaves it no one's");
        }
    }

    /** Options that do not adopt: {@code new ApplyOptions(fieldManager, owned, false)}. */
    public ApplyOptions(String fieldManager, boolean owned) {
        this(fieldManager, owned, false);
    }

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
        return new ApplyOptions(Objects.requireNonNull(fieldManager, "fieldManager"), owned, adopts);
    }

    /**
     * Not the primary's: no owner reference, no pruning label (a shared object, say). Such an apply
     * takes no ownership, so it is not checked for whose the object is: it writes its fields into
     * whatever exists under the name, forcing them.
     */
    public ApplyOptions notOwned() {
        return new ApplyOptions(fieldManager, false, adopts);
    }

    /**
     * Take over an existing object that no one controls even if this controller never applied it:
     * it gets the controller owner reference and the label, its fields are forced to the applied
     * values, and an {@code Adopted} event says so. Without it, such an object is refused
     * ({@link ForeignObjectException}), because it belongs to someone: a user's Service that
     * happens to have the name would have its selector changed and be garbage-collected with the
     * primary. Use it only for objects the operator is meant to take over (a migration from
     * objects made by hand or by another tool), ideally for names no user chooses. An object that
     * another owner controls is refused even so: Kubernetes allows one controller per object.
     */
    public ApplyOptions adopt() {
        return new ApplyOptions(fieldManager, owned, true);
    }
}
