package dev.kubeloop.webhook;

/**
 * One webhook at one path: a request body in, an answer out. {@link #handle} never throws: bad
 * input is answered with a 400 or a denial that says what was wrong, and what user code throws is
 * answered as a denial (admission) or failure (conversion) carrying its message, and reported in
 * {@link WebhookAnswer#userCodeFailure()}. Implementations are stateless and thread-safe.
 */
public interface Webhook {

    /** The HTTP path, e.g. {@code /validate-sample-kubeloop-dev-v1-website}. */
    String path();

    WebhookType type();

    /** The resource type it serves: the validated or defaulted type, or a conversion's hub. */
    ResourceType resource();

    /** Answers one request body. */
    WebhookAnswer handle(byte[] body);
}
