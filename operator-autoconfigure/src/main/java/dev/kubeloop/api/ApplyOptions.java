package dev.kubeloop.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
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

    /** The API server's limit on a field manager, in UTF-8 bytes. */
    public static final int MAX_FIELD_MANAGER_BYTES = 128;
    /** A bounded manager ends with '-' and this many hex digits of the SHA-256 of the whole name. */
    private static final int HASH_HEX_DIGITS = 16;

    private static final ApplyOptions DEFAULTS = new ApplyOptions(null, true);

    /** Bounds {@code fieldManager} as {@link #fieldManager(String)} says, however the options are made. */
    public ApplyOptions {
        fieldManager = fieldManager == null ? null : bounded(fieldManager);
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
        return new ApplyOptions(Objects.requireNonNull(fieldManager, "fieldManager"), owned);
    }

    /** Not the primary's: no owner reference, no pruning label (a shared object, say). */
    public ApplyOptions notOwned() {
        return new ApplyOptions(fieldManager, false);
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
