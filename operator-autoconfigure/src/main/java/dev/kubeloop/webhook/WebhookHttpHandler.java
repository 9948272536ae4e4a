package dev.kubeloop.webhook;

import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the server answers, apart from the transport: route by path, accept only {@code POST} of
 * {@code application/json} up to {@link #MAX_BODY_BYTES}, hand the body to the webhook. The
 * refusals are decided from the request line and headers, before any body is read; the answer
 * from the body on a webhook thread. Nothing escapes it: whatever goes wrong is an HTTP answer
 * without a stack trace. Stateless, thread-safe.
 */
final class WebhookHttpHandler {

    /** controller-runtime's limit (7 MiB): an object and its old state, each up to etcd's 1.5 MiB, with room. */
    static final int MAX_BODY_BYTES = 7 * 1024 * 1024;

    /** How much of a refused body is read and dropped before the answer (not kept): then the connection stays usable. */
    static final long DRAIN_BYTES = 4L * MAX_BODY_BYTES;

    private static final Logger log = LoggerFactory.getLogger(WebhookServer.class);

    private final Webhooks webhooks;

    WebhookHttpHandler(Webhooks webhooks) {
        this.webhooks = webhooks;
    }

    /** The webhook at {@code path}, or null. */
    Webhook at(String path) {
        return webhooks.at(path).orElse(null);
    }

    WebhookAnswer notFound(String path) {
        return webhooks.notFound(path);
    }

    /**
     * The refusal of a request to {@code webhook} from its method, content type and declared
     * length ({@code -1}: not declared), or null if its body is to be read.
     */
    WebhookAnswer refusal(Webhook webhook, String method, String contentType, long contentLength) {
        if (!"POST".equals(method)) {
            return WebhookAnswer.text(405, "Method " + method + " not allowed: POST an "
                    + (webhook.type() == WebhookType.CONVERSION ? "apiextensions.k8s.io/v1 ConversionReview"
                            : "admission.k8s.io/v1 AdmissionReview") + " to " + webhook.path());
        }
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            return WebhookAnswer.text(415, "Content-Type " + (contentType == null ? "missing" : "'" + contentType
                    + "'") + ": expected application/json");
        }
        if (contentLength > MAX_BODY_BYTES) {
            return tooLarge();
        }
        return null;
    }

    static WebhookAnswer tooLarge() {
        return WebhookAnswer.text(413, "Request body larger than " + MAX_BODY_BYTES + " bytes");
    }

    /** The webhook's answer to {@code body}; what user code threw is logged here, once. */
    WebhookAnswer answer(Webhook webhook, byte[] body) {
        WebhookAnswer answer = webhook.handle(body);
        Throwable failure = answer.userCodeFailure();
        if (failure != null) {
            log.warn("Webhook {} failed, request denied: {}: {}", webhook.path(), failure.getClass().getName(),
                    failure.getMessage());
            log.debug("Webhook {} failure", webhook.path(), failure);
        }
        return answer;
    }
}
