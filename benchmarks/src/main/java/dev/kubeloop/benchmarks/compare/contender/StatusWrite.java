package dev.kubeloop.benchmarks.compare.contender;

import java.util.Locale;

/**
 * How every writing contender of one invocation writes {@code status.observedGeneration}, so that
 * the frameworks are compared on the same request (issue 32: two tables, one per way).
 *
 * <ul>
 *   <li>{@link #MERGE}: a patch of {@code /status}. {@code bound+patch} and JOSDK
 *       ({@code ResourceOperations.jsonMergePatchPrimaryStatus}, its read-your-writes merge patch)
 *       send a JSON merge patch; Kubeloop, which has no merge-patch status write, its patch write
 *       {@code updateStatus}: a JSON patch (RFC 6902) replacing {@code /status}, locked on the
 *       resourceVersion.
 *   <li>{@link #SSA}: server-side apply of {@code /status}, forced, each contender as its own
 *       field manager (JOSDK with {@code withUseSSAToPatchPrimaryResource(true)} and
 *       {@code UpdateControl.patchStatus}, Kubeloop with {@code applyStatus}).
 * </ul>
 */
public enum StatusWrite {
    MERGE,
    SSA;

    /** Parses {@code merge} or {@code ssa}; anything else fails naming the flag. */
    public static StatusWrite parse(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "merge" -> MERGE;
            case "ssa" -> SSA;
            default -> throw new IllegalArgumentException("--write must be merge or ssa, got '" + value + "'");
        };
    }

    /** The flag value, as {@link #parse} reads it. */
    public String flag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
