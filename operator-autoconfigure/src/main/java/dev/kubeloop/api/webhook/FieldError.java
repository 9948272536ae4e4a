package dev.kubeloop.api.webhook;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * One field's error in a denial, shaped like Kubernetes' own {@code field.Error}: the field's path
 * ({@code spec.replicas}, {@code spec.rules[0].host}), what is wrong with it, the value the user gave
 * (null: not shown) and a message. {@link Admission#invalid(FieldError...)} answers with them as the
 * API server answers an invalid object, so {@code kubectl} prints each one:
 *
 * <pre>{@code
 * return Admission.invalid(
 *         FieldError.invalid("spec.replicas", 11, "must be at most 10"),
 *         FieldError.required("spec.tls.secretName", "needed when spec.tls is set"));
 * }</pre>
 *
 * @param field   the field's path, as {@code kubectl explain} spells it; not blank
 * @param type    what is wrong with it
 * @param value   the value the user gave, shown as the API server shows it (a string quoted); null
 *                when it is not to be shown; never shown for {@link Type#REQUIRED},
 *                {@link Type#FORBIDDEN} and {@link Type#TOO_LONG}, as Kubernetes does
 * @param message what the user should know, may be empty
 */
public record FieldError(String field, Type type, @Nullable Object value, String message) {

    /** Kubernetes' field error types: the cause's {@link #reason()} and the words the message starts with. */
    public enum Type {
        NOT_FOUND("FieldValueNotFound", "Not found"),
        REQUIRED("FieldValueRequired", "Required value"),
        DUPLICATE("FieldValueDuplicate", "Duplicate value"),
        INVALID("FieldValueInvalid", "Invalid value"),
        NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value"),
        FORBIDDEN("FieldValueForbidden", "Forbidden"),
        TOO_LONG("FieldValueTooLong", "Too long"),
        TOO_MANY("FieldValueTooMany", "Too many");

        private final String reason;
        private final String words;

        Type(String reason, String words) {
            this.reason = reason;
            this.words = words;
        }

        /** The {@code StatusCause} reason: {@code FieldValueInvalid}, {@code FieldValueRequired}, ... */
        public String reason() {
            return reason;
        }

        /** How the message starts: {@code Invalid value}, {@code Required value}, ... */
        public String words() {
            return words;
        }

        boolean showsValue() {
            return this != REQUIRED && this != FORBIDDEN && this != TOO_LONG;
        }
    }

    public FieldError {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(type, "type");
        if (field.isBlank()) {
            throw new IllegalArgumentException("a field error needs the field's path, e.g. spec.replicas");
        }
        message = message == null ? "" : message;
    }

    /** The value is not valid: {@code spec.replicas: Invalid value: 11: must be at most 10}. */
    public static FieldError invalid(String field, @Nullable Object value, String message) {
        return new FieldError(field, Type.INVALID, value, message);
    }

    /** The field is missing: {@code spec.tls.secretName: Required value: needed when spec.tls is set}. */
    public static FieldError required(String field, String message) {
        return new FieldError(field, Type.REQUIRED, null, message);
    }

    /** The value is none of {@code allowed}: {@code spec.tier: Unsupported value: "gold": supported values: "free", "paid"}. */
    public static FieldError notSupported(String field, Object value, String... allowed) {
        return notSupported(field, value, Arrays.asList(allowed));
    }

    /** As {@link #notSupported(String, Object, String...)}. */
    public static FieldError notSupported(String field, Object value, List<String> allowed) {
        return new FieldError(field, Type.NOT_SUPPORTED, value, allowed.isEmpty() ? ""
                : "supported values: " + allowed.stream().map(FieldError::quote).collect(Collectors.joining(", ")));
    }

    /** The field may not be set or changed: {@code spec.storageClass: Forbidden: may not be changed}. */
    public static FieldError forbidden(String field, String message) {
        return new FieldError(field, Type.FORBIDDEN, null, message);
    }

    /** The cause's message, as Kubernetes' {@code ErrorBody}: {@code Invalid value: 11: must be at most 10}. */
    public String body() {
        String body = type.words();
        if (value != null && type.showsValue()) {
            body += ": " + (value instanceof CharSequence text ? quote(text.toString()) : String.valueOf(value));
        }
        return message.isEmpty() ? body : body + ": " + message;
    }

    /** As Kubernetes' {@code Error}: {@code spec.replicas: Invalid value: 11: must be at most 10}. */
    @Override
    public String toString() {
        return field + ": " + body();
    }

    private static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
}
