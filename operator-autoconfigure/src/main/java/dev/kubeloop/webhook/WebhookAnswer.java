package dev.kubeloop.webhook;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What the server sends back for one request: an HTTP status and a JSON body (an AdmissionReview
 * or ConversionReview, also for the 400s, so that a person calling by hand reads the reason in
 * the shape they sent), plus what went wrong in user code, if anything, for the metrics and the
 * log. Immutable.
 *
 * @param status the HTTP status: 200 for every answered review (allowed or not), 400 for a body
 *     that is no review at all, 404/405/413/415 from the HTTP layer
 * @param body the response body (JSON, or plain text for the HTTP layer's refusals)
 * @param userCodeFailure what a validator, defaulter or converter threw; null if nothing
 */
public record WebhookAnswer(int status, byte[] body, Throwable userCodeFailure) {

    public WebhookAnswer {
        Objects.requireNonNull(body, "body");
    }

    static WebhookAnswer json(int status, String json) {
        return new WebhookAnswer(status, json.getBytes(StandardCharsets.UTF_8), null);
    }

    static WebhookAnswer text(int status, String text) {
        return new WebhookAnswer(status, (text + "\n").getBytes(StandardCharsets.UTF_8), null);
    }

    WebhookAnswer failedIn(Throwable failure) {
        return new WebhookAnswer(status, body, failure);
    }

    /** The body as text, for tests and messages. */
    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** True when the body is JSON (a review), false for the HTTP layer's plain-text refusals. */
    public boolean isJson() {
        return body.length > 0 && body[0] == '{';
    }
}
