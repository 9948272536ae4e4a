package dev.kubeloop.api.webhook;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A validator's answer: allowed, or denied with a message the user sees
 * ({@code admission webhook "..." denied the request: <message>}); either way with optional
 * warnings, which {@code kubectl} prints as {@code Warning: <text>} and fabric8 logs. Immutable.
 *
 * <pre>{@code
 * return Admission.denied("spec.tls.secretName is required when spec.tls is set");
 * return Admission.allowed().withWarning("spec.replicas above 10 needs a PodDisruptionBudget");
 * }</pre>
 */
public final class Admission {

    private static final Admission ALLOWED = new Admission(true, null, List.of());

    private final boolean allowed;
    private final String message;
    private final List<String> warnings;

    private Admission(boolean allowed, String message, List<String> warnings) {
        this.allowed = allowed;
        this.message = message;
        this.warnings = List.copyOf(warnings);
    }

    /** The request may go on. */
    public static Admission allowed() {
        return ALLOWED;
    }

    /** The request is refused; {@code message} says why, in words a user can act on. */
    public static Admission denied(String message) {
        Objects.requireNonNull(message, "message");
        if (message.isBlank()) {
            throw new IllegalArgumentException("a denial needs a message that says why");
        }
        return new Admission(false, message, List.of());
    }

    /** The same answer with one more warning (the API server keeps at most 120 characters of each line). */
    public Admission withWarning(String warning) {
        Objects.requireNonNull(warning, "warning");
        List<String> more = new ArrayList<>(warnings);
        more.add(warning);
        return new Admission(allowed, message, more);
    }

    public boolean isAllowed() {
        return allowed;
    }

    /** Why the request was denied; null when allowed. */
    public String message() {
        return message;
    }

    public List<String> warnings() {
        return warnings;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Admission that && allowed == that.allowed && Objects.equals(message, that.message)
                && warnings.equals(that.warnings);
    }

    @Override
    public int hashCode() {
        return Objects.hash(allowed, message, warnings);
    }

    @Override
    public String toString() {
        return (allowed ? "allowed" : "denied: " + message) + (warnings.isEmpty() ? "" : " warnings=" + warnings);
    }
}
