package dev.kubeloop.testing;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCauseBuilder;
import io.fabric8.kubernetes.api.model.StatusDetailsBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.function.Function;

/**
 * An error answer as a real API server gives it: the HTTP status, a {@code Status} body with the
 * reason, the message worded as the API server words it (naming the request's resource, object,
 * verb and namespace) and the details, plus {@code Retry-After} for 429. Immutable.
 */
public final class ApiError {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final int code;
    private final String reason;
    private final Function<ApiRequest, String> message;
    private final Integer retryAfterSeconds;
    private final String cause;
    /** The field a 422's cause names; null for other errors. */
    private final String field;
    /** The cause's reason (its {@code type} in Go), e.g. {@code NamespaceTerminating}; null for most errors. */
    private final String causeReason;

    private ApiError(int code, String reason, Function<ApiRequest, String> message, Integer retryAfterSeconds,
            String cause) {
        this(code, reason, message, retryAfterSeconds, cause, null);
    }

    private ApiError(int code, String reason, Function<ApiRequest, String> message, Integer retryAfterSeconds,
            String cause, String field) {
        this(code, reason, message, retryAfterSeconds, cause, field, null);
    }

    private ApiError(int code, String reason, Function<ApiRequest, String> message, Integer retryAfterSeconds,
            String cause, String field, String causeReason) {
        this.causeReason = causeReason;
        this.field = field;
        this.code = code;
        this.reason = reason;
        this.message = message;
        this.retryAfterSeconds = retryAfterSeconds;
        this.cause = cause;
    }

    /** 429, as the API server's priority and fairness (or max-in-flight) limit answers. */
    public static ApiError tooManyRequests(int retryAfterSeconds) {
        return new ApiError(429, "TooManyRequests", request -> "Too many requests, please try again later.",
                retryAfterSeconds, null);
    }

    /** 500, as the API server answers when etcd fails it. */
    public static ApiError internalError() {
        String cause = "etcdserver: request timed out";
        return new ApiError(500, "InternalError", request -> "Internal error occurred: " + cause, null, cause);
    }

    /** 404, as the API server answers for a resource it does not serve (its CRD was deleted). */
    public static ApiError notFound() {
        return new ApiError(404, "NotFound", request -> "the server could not find the requested resource", null,
                null);
    }

    /** 409, as an update or patch locked on a resourceVersion that is no longer current gets it. */
    public static ApiError conflict() {
        return new ApiError(409, "Conflict", request -> "Operation cannot be fulfilled on "
                + request.qualifiedResource() + " \"" + request.name() + "\": the object has been modified; please "
                + "apply your changes to the latest version and try again", null, null);
    }

    /**
     * 403, as the RBAC authorizer denies {@code user} (e.g. {@code system:serviceaccount:ops:my-operator})
     * the request's verb on its resource and subresource.
     */
    public static ApiError forbidden(String user) {
        return new ApiError(403, "Forbidden", request -> {
            String object = request.name() == null ? request.qualifiedResource()
                    : request.qualifiedResource() + " \"" + request.name() + "\"";
            String scope = request.namespace() == null ? "at the cluster scope"
                    : "in the namespace \"" + request.namespace() + "\"";
            return object + " is forbidden: User \"" + user + "\" cannot " + request.verb() + " resource \""
                    + request.resourceAndSubresource() + "\" in API group \"" + request.group() + "\" " + scope;
        }, null, null);
    }

    /**
     * 422, as the API server refuses an object its validation rejects: {@code field} (e.g.
     * {@code metadata.name}) with {@code message} (e.g. a DNS-1035 label's rules).
     */
    public static ApiError invalid(String field, String message) {
        return new ApiError(422, "Invalid", request -> request.qualifiedResource() + " \"" + request.name()
                + "\" is invalid: " + field + ": Invalid value: " + message, null, message, field);
    }

    /**
     * 403, as the API server's NamespaceLifecycle admission refuses a create in a namespace being
     * deleted: the message and the cause ({@code reason: NamespaceTerminating}) as Kubernetes words them.
     */
    public static ApiError namespaceTerminating() {
        return new ApiError(403, "Forbidden", request -> request.qualifiedResource() + " \"" + request.name()
                + "\" is forbidden: unable to create new content in namespace " + request.namespace()
                + " because it is being terminated", null, "namespace is being terminated", "metadata.namespace",
                "NamespaceTerminating");
    }

    public int code() {
        return code;
    }

    /** The answer to {@code request}. */
    MockResponse response(ApiRequest request) {
        StatusBuilder status = new StatusBuilder().withApiVersion("v1").withKind("Status").withNewMetadata()
                .endMetadata().withStatus("Failure").withCode(code).withReason(reason)
                .withMessage(message.apply(request));
        StatusDetailsBuilder details = new StatusDetailsBuilder().withName(request.name()).withGroup(request.group())
                .withKind(request.resource()).withRetryAfterSeconds(retryAfterSeconds);
        if (cause != null) {
            details.withCauses(new StatusCauseBuilder().withMessage(cause).withField(field).withReason(causeReason)
                    .build());
        }
        status.withDetails(details.build());
        Status body = status.build();
        MockResponse response = new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(JSON.asJson(body));
        if (retryAfterSeconds != null) {
            response.setHeader("Retry-After", retryAfterSeconds);
        }
        return response;
    }
}
