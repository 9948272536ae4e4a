package dev.kubeloop.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How {@link ReconcileContext#apply(io.fabric8.kubernetes.api.model.HasMetadata, ApplyOptions)}
 * writes one object. Immutable; start from {@link #defaults()}.
 *
 * @param fieldManager the server-side apply field manager; null: the controller's
 * @param owned whether the object is the primary's: it gets a controller owner reference and the
 *     label that lets pruning delete it once a reconcile no longer applies it (unless
 *     {@code retained})
 * @param adopts whether an existing object that no one controls and that this controller never
 *     applied may be taken over (see {@link #adopt()}); only with {@code owned}
 * @param retained whether an owned object stays outside the set pruning deletes from (see
 *     {@link #retain()}); only with {@code owned}
 * @param removesStaleEntries whether an apply the API server refuses (422) because a keyed list
 *     still holds entries this apply does not set removes those entries and applies again (see
 *     {@link #removeStaleEntries()})
 */
public record ApplyOptions(@Nullable String fieldManager, boolean owned, boolean adopts, boolean retained,
        boolean removesStaleEntries) {

    /** The API server's limit on a field manager, in UTF-8 bytes. */
    public static final int MAX_FIELD_MANAGER_BYTES = 128;
    /** A bounded manager ends with '-' and this many hex digits of the SHA-256 of the whole name. */
    private static final int HASH_HEX_DIGITS = 16;

    private static final ApplyOptions DEFAULTS = new ApplyOptions(null, true, false, false, false);

    /**
     * Bounds {@code fieldManager} as {@link #fieldManager(String)} says, however the options are
     * made, and refuses adopting or retaining what is not owned.
     */
    public ApplyOptions {
        if (adopts && !owned) {
            throw new IllegalArgumentException("adopt() and notOwned() contradict each other: adopting makes the "
                    + "object the primary's, notOwned() leaves it no one's");
        }
        if (retained && !owned) {
            throw new IllegalArgumentException("retain() and notOwned() contradict each other: retain() keeps an "
                    + "object of the primary's out of pruning, and a notOwned() object is never pruned anyway");
        }
        fieldManager = fieldManager == null ? null : bounded(fieldManager);
    }

    /** Options as before {@link #retain()} and {@link #removeStaleEntries()} existed. */
    public ApplyOptions(@Nullable String fieldManager, boolean owned, boolean adopts) {
        this(fieldManager, owned, adopts, false, false);
    }

    /** Options that do not adopt: {@code new ApplyOptions(fieldManager, owned, false)}. */
    public ApplyOptions(@Nullable String fieldManager, boolean owned) {
        this(fieldManager, owned, false);
    }

    /** The controller's field manager; owned by the primary when its type is one the reconciler owns. */
    public static ApplyOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Apply as another field manager, e.g. one per primary for a shared object every primary writes
     * a part of ({@code "website-index/" + name}): each manager owns only the fields it applies, so
     * neither removes the other's, and there is no resourceVersion to contend on.
     *
     * <p>The API server refuses a manager over {@value #MAX_FIELD_MANAGER_BYTES} bytes, and an
     * object's name alone may have 253 characters; so a longer manager is bounded: its first bytes
     * (never cutting a character), '-', and 16 hex digits of the SHA-256 of the whole of it: 128
     * bytes, the same for the same name after every restart, and different for different names
     * (64 bits of hash). {@link #fieldManager()} returns what is sent.
     *
     * @throws IllegalArgumentException if {@code fieldManager} is blank or holds a character the API
     *     server refuses (control characters, spaces other than ' ', unassigned ones)
     */
    public ApplyOptions fieldManager(String fieldManager) {
        return new ApplyOptions(Objects.requireNonNull(fieldManager, "fieldManager"), owned, adopts, retained,
                removesStaleEntries);
    }

    /**
     * Not the primary's: no owner reference, no pruning label (a shared object, say). Such an apply
     * takes no ownership, so it is not checked for whose the object is: it writes its fields into
     * whatever exists under the name, forcing them.
     */
    public ApplyOptions notOwned() {
        return new ApplyOptions(fieldManager, false, adopts, retained, removesStaleEntries);
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
        return new ApplyOptions(fieldManager, owned, true, retained, removesStaleEntries);
    }

    /**
     * Owned, but outside the set that pruning deletes from: for children that accumulate, one per
     * run (a scheduled Job, a backup), which a later reconcile does not apply again and must not
     * lose. The object gets everything else an owned apply gives (the controller owner reference,
     * so the garbage collector deletes it with the primary; no-op detection; events;
     * read-your-writes), and the label {@code kubeloop.dev/retained-by=<controller>} instead of
     * {@code kubeloop.dev/applied-by}, which every version of Kubeloop's pruning selects on: no
     * version prunes it, an earlier one included. An object applied before without this option
     * leaves the pruned set the first time it is applied with it. Deleting retained objects (a
     * history limit) is the reconciler's job.
     */
    public ApplyOptions retain() {
        return new ApplyOptions(fieldManager, owned, adopts, true, removesStaleEntries);
    }

    /**
     * When the API server refuses the apply as invalid (422) because a list merged by key (a
     * Service's ports, a container's env) still holds entries this apply does not set, left there
     * by another field manager ({@code kubectl edit}) or by an earlier write that was not this
     * apply (a {@code create}): replace each such list by this apply's entries (locked on the
     * version read) and apply again, once; a {@code StaleEntriesRemoved} event names what went.
     * Without it, such a refusal fails the reconcile with a message that names the list, the
     * entries and who set them. Use it for lists the operator alone decides (its Service's ports);
     * not for lists others are meant to add to (sidecars injected into a Pod template).
     */
    public ApplyOptions removeStaleEntries() {
        return new ApplyOptions(fieldManager, owned, adopts, retained, true);
    }

    private static String bounded(String manager) {
        if (manager.isBlank()) {
            throw new IllegalArgumentException("a field manager must not be blank");
        }
        if (!manager.codePoints().allMatch(ApplyOptions::printable)) {
            throw new IllegalArgumentException("field manager '" + manager.replaceAll("\\p{Cntrl}", "?") + "' must "
                    + "hold only printable characters, as the API server requires (no control characters, no spaces "
                    + "but ' ')");
        }
        byte[] utf8 = manager.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= MAX_FIELD_MANAGER_BYTES) {
            return manager;
        }
        int budget = MAX_FIELD_MANAGER_BYTES - 1 - HASH_HEX_DIGITS;
        StringBuilder prefix = new StringBuilder();
        int used = 0;
        for (int codePoint : manager.codePoints().toArray()) {
            int size = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
            if (used + size > budget) {
                break;
            }
            prefix.appendCodePoint(codePoint);
            used += size;
        }
        return prefix + "-" + sha256Hex(utf8).substring(0, HASH_HEX_DIGITS);
    }

    /** Go's {@code unicode.IsPrint}, which the API server applies: graphic characters and the ASCII space. */
    private static boolean printable(int codePoint) {
        if (codePoint == ' ') {
            return true;
        }
        return switch (Character.getType(codePoint)) {
            case Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE, Character.SURROGATE, Character.UNASSIGNED,
                    Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
            default -> true;
        };
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
