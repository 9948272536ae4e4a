package dev.kubeloop.api.webhook;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A validator's answer: allowed, denied with a message the user sees
 * ({@code admission webhook "..." denied the request: <message>}, 403 Forbidden), or invalid with
 * {@linkplain FieldError field errors} (422 Invalid, as the API server answers an invalid object,
 * each field's error a cause {@code kubectl} prints); each with optional warnings, which
 * {@code kubectl} prints as {@code Warning: <text>} and fabric8 logs. Immutable.
 *
 * <pre>{@code
 * return Admission.denied("spec.tls.secretName is required when spec.tls is set");
 * return Admission.invalid(FieldError.required("spec.tls.secretName", "needed when spec.tls is set"));
 * return Admission.allowed().withWarning("spec.replicas above 10 needs a PodDisruptionBudget");
 * }</pre>
 */
public final class Admission {

    private static final Admission ALLOWED = new Admission(true, null, List.of(), List.of());

    private final boolean allowed;
    private final @Nullable String message;
    private final List<String> warnings;
    private final List<FieldError> fieldErrors;

    private Admission(boolean allowed, @Nullable String message, List<String> warnings, List<FieldError> fieldErrors) {
        this.allowed = allowed;
        this.message = message;
        this.warnings = List.copyOf(warnings);
        this.fieldErrors = fieldErrors;
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
        return new Admission(false, message, List.of(), List.of());
    }

    /**
     * The object is invalid: refused with 422 Invalid and one cause per field error, as the API
     * server refuses an object its schema rejects. At least one error.
     */
    public static Admission invalid(FieldError... errors) {
        return invalid(Arrays.asList(Objects.requireNonNull(errors, "errors")));
    }

    /** As {@link #invalid(FieldError...)}. */
    public static Admission invalid(List<FieldError> errors) {
        List<FieldError> copy = List.copyOf(Objects.requireNonNull(errors, "errors"));
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("an invalid answer needs at least one field error");
        }
        // as Kubernetes' ErrorList.ToAggregate: one error as it is, several in brackets, the same twice once
        List<String> distinct = copy.stream().map(FieldError::toString).distinct().toList();
        String message = distinct.size() == 1 ? distinct.get(0) : "[" + String.join(", ", distinct) + "]";
        return new Admission(false, message, List.of(), copy);
    }

    /** The same answer with one more warning (the API server keeps at most 120 characters of each line). */
    public Admission withWarning(String warning) {
        Objects.requireNonNull(warning, "warning");
        List<String> more = new ArrayList<>(warnings);
        more.add(warning);
        return new Admission(allowed, message, more, fieldErrors);
    }

    public boolean isAllowed() {
        return allowed;
    }

    /**
     * Why the request was denied; null when allowed. For {@link #invalid(FieldError...)} the field
     * errors as Kubernetes aggregates them ({@code spec.a: Invalid value: "x": msg}, several in
     * {@code [..., ...]}); the API server's message puts {@code <Kind> "<name>" is invalid: } before it.
     */
    public @Nullable String message() {
        return message;
    }

    public List<String> warnings() {
        return warnings;
    }

    /** The field errors of an {@link #invalid(FieldError...)} answer; empty for any other. */
    public List<FieldError> fieldErrors() {
        return fieldErrors;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Admission that && allowed == that.allowed && Objects.equals(message, that.message)
                && warnings.equals(that.warnings) && fieldErrors.equals(that.fieldErrors);
    }

    @Override
    public int hashCode() {
        return Objects.hash(allowed, message, warnings, fieldErrors);
    }

    @Override
    public String toString() {
        return (allowed ? "allowed" : (fieldErrors.isEmpty() ? "denied: " : "invalid: ") + message) + (warnings.isEmpty() ? "" : " warnings=" + warnings);
    }
}
