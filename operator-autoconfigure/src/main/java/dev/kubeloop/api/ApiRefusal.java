package dev.kubeloop.api;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The API server refused a request because of the request itself, so that retrying it unchanged
 * cannot help: 400 Bad Request, 403 Forbidden, 422 Invalid (a name that is not a DNS label, a label
 * value over 63 characters, a field the schema rejects). Found anywhere in an exception's cause
 * chain; carries the API server's explanation, field by field. Also 409 for a
 * {@link ForeignObjectException}: {@code apply} refused, before sending anything, to take over an
 * object this controller does not control.
 *
 * <p>The runtime reports such a failure once per object and generation (a log line naming the
 * object and the field, a Warning event) and keeps retrying with backoff without a stack trace per
 * retry. A reconciler that wants to say so in its status catches the exception:
 *
 * <pre>{@code
 * try {
 *     context.apply(service);
 * } catch (KubernetesClientException e) {
 *     ApiRefusal.of(e).filter(ApiRefusal::invalid).ifPresent(refusal -> Conditions.set(conditions, "Ready",
 *             ConditionStatus.FALSE, "InvalidService", refusal.describe(), generation));
 *     throw e;
 * }
 * }</pre>
 *
 * @param code the HTTP status: 400, 403, 422, or 409 for a foreign object
 * @param reason the API server's reason ({@code Invalid}, {@code BadRequest}, {@code Forbidden},
 *     {@code AlreadyExists} for a foreign object); may be null
 * @param message the API server's message
 * @param causes the fields at fault, with their messages (may be empty)
 */
public record ApiRefusal(int code, @Nullable String reason, String message, List<Cause> causes) {

    /** The cause reason with which the API server refuses a create in a namespace being deleted. */
    public static final String NAMESPACE_TERMINATING = "NamespaceTerminating";

    /**
     * One field at fault.
     *
     * @param field the field's path, e.g. {@code metadata.name}; may be null
     * @param message why
     * @param reason the cause's reason ({@code type} in Kubernetes' Go), e.g. {@code FieldValueInvalid}
     *     or {@value ApiRefusal#NAMESPACE_TERMINATING}; may be null
     */
    public record Cause(@Nullable String field, String message, @Nullable String reason) {

        public Cause(@Nullable String field, String message) {
            this(field, message, null);
        }
    }

    public ApiRefusal {
        causes = List.copyOf(causes);
    }

    /**
     * The first refusal (400, 403, 422, or a {@link ForeignObjectException}) in {@code error}'s cause
     * chain, if there is one. Another 409 (a conflict on a resourceVersion) is not one: the runtime
     * retries it quietly, and the retry reads the newer object.
     */
    public static Optional<ApiRefusal> of(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof KubernetesClientException e && (e.getCode() == 400 || e.getCode() == 403
                    || e.getCode() == 422 || e instanceof ForeignObjectException)) {
                Status status = e.getStatus();
                String message = status != null && status.getMessage() != null ? status.getMessage()
                        : String.valueOf(e.getMessage());
                List<Cause> causes = new ArrayList<>();
                if (status != null && status.getDetails() != null && status.getDetails().getCauses() != null) {
                    for (StatusCause cause : status.getDetails().getCauses()) {
                        causes.add(new Cause(cause.getField(), cause.getMessage(), cause.getReason()));
                    }
                }
                return Optional.of(new ApiRefusal(e.getCode(), status == null ? null : status.getReason(), message,
                        causes));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the object itself was refused (400, 422, or a foreign object: 409), rather than the
     * permission to write it (403).
     */
    public boolean invalid() {
        return code != 403;
    }

    /**
     * Whether {@code apply} refused to take over an object that another owner controls or that this
     * controller never applied ({@link ForeignObjectException}); {@link #describe()} names it and its
     * controller.
     */
    public boolean foreign() {
        return code == 409;
    }

    /**
     * Whether the namespace is being deleted: the API server refuses every create in it (403, cause
     * {@value #NAMESPACE_TERMINATING}; older servers only say so in the message), while updates and
     * deletes of what is still there go through. Nothing of the namespace will last: a cleanup that
     * would create something there has nothing left to do (what it would have written to is gone,
     * and cannot come back), and its finalizer may go.
     */
    public boolean namespaceTerminating() {
        return code == 403 && (causes.stream().anyMatch(cause -> NAMESPACE_TERMINATING.equals(cause.reason()))
                || message != null && message.contains("because it is being terminated"));
    }

    /** One sentence for a condition or an event: the API server's message (it names the fields). */
    public String describe() {
        return message;
    }
}
