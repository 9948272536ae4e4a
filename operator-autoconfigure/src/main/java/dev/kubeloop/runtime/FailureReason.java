package dev.kubeloop.runtime;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * One line saying why a request to the API server failed, for a log line or a health detail: the
 * HTTP status the API server answered with (code, reason and its message) if there was one in the
 * cause chain, else the innermost cause (connection refused, timed out, ...). Never a stack trace:
 * these failures are expected conditions of a distributed system, and the trace is logged at DEBUG.
 */
public final class FailureReason {

    private FailureReason() {
    }

    /** E.g. {@code HTTP 404 NotFound: the server could not find the requested resource} or {@code ConnectException: Connection refused}. */
    public static String of(Throwable error) {
        Throwable innermost = error;
        for (Throwable cause : Causes.chain(error)) {
            if (cause instanceof KubernetesClientException api && api.getCode() > 0) {
                String reason = api.getStatus() == null ? null : api.getStatus().getReason();
                String message = api.getStatus() != null && api.getStatus().getMessage() != null
                        ? api.getStatus().getMessage() : api.getMessage();
                return "HTTP " + api.getCode() + (reason == null ? "" : " " + reason) + ": " + firstLine(message);
            }
            innermost = cause;
        }
        String message = innermost.getMessage();
        return innermost.getClass().getSimpleName() + (message == null ? "" : ": " + firstLine(message));
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }
}
