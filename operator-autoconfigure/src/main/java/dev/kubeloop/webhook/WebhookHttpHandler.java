package dev.kubeloop.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of one request: route by path, accept only {@code POST} of
 * {@code application/json} up to {@link #MAX_BODY_BYTES}, hand the body to the webhook, write the
 * answer, report to the observer. Nothing escapes it: whatever goes wrong is an HTTP answer
 * without a stack trace, and the server keeps serving. Stateless, thread-safe.
 */
final class WebhookHttpHandler implements HttpHandler {

    /** controller-runtime's limit (7 MiB): an object and its old state, each up to etcd's 1.5 MiB, with room. */
    static final int MAX_BODY_BYTES = 7 * 1024 * 1024;

    /** How much of a too large body is read and dropped before the 413 (not kept: read in 8 KiB pieces). */
    static final long DRAIN_BYTES = 4L * MAX_BODY_BYTES;

    private static final Logger log = LoggerFactory.getLogger(WebhookServer.class);

    private final Webhooks webhooks;
    private final WebhookObserver observer;

    WebhookHttpHandler(Webhooks webhooks, WebhookObserver observer) {
        this.webhooks = webhooks;
        this.observer = observer;
    }

    @Override
    public void handle(HttpExchange exchange) {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            Webhook webhook = webhooks.at(path).orElse(null);
            if (webhook == null) {
                write(exchange, webhooks.notFound(path));
                return;
            }
            long start = System.nanoTime();
            observer.requestStarted(webhook);
            int status = 500;
            try {
                WebhookAnswer answer = answer(exchange, webhook);
                status = answer.status();
                if (answer.userCodeFailure() != null) {
                    Throwable failure = answer.userCodeFailure();
                    observer.userCodeFailed(webhook, failure);
                    log.warn("Webhook {} failed, request denied: {}: {}", webhook.path(),
                            failure.getClass().getName(), failure.getMessage());
                    log.debug("Webhook {} failure", webhook.path(), failure);
                }
                write(exchange, answer);
            } finally {
                observer.requestFinished(webhook, status, System.nanoTime() - start);
            }
        } catch (IOException e) {
            log.debug("Webhook response not written: {}", e.toString()); // the caller went away
        } catch (RuntimeException | Error e) {
            log.error("Webhook request failed: {}", e.toString());
            log.debug("Webhook request failure", e);
        }
    }

    private WebhookAnswer answer(HttpExchange exchange, Webhook webhook) throws IOException {
        if (!"POST".equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().set("Allow", "POST");
            return WebhookAnswer.text(405, "Method " + exchange.getRequestMethod() + " not allowed: POST an "
                    + (webhook.type() == WebhookType.CONVERSION ? "apiextensions.k8s.io/v1 ConversionReview"
                            : "admission.k8s.io/v1 AdmissionReview") + " to " + webhook.path());
        }
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            return WebhookAnswer.text(415, "Content-Type " + (contentType == null ? "missing" : "'" + contentType
                    + "'") + ": expected application/json");
        }
        byte[] body = readBody(exchange.getRequestBody());
        if (body == null) {
            return WebhookAnswer.text(413, "Request body larger than " + MAX_BODY_BYTES + " bytes");
        }
        return webhook.handle(body);
    }

    /** The body, or null if it is longer than the limit (the rest is left to {@link #write}'s drain). */
    private static byte[] readBody(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(8192);
        byte[] buffer = new byte[8192];
        int read;
        while ((read = in.read(buffer)) >= 0) {
            if (body.size() + read > MAX_BODY_BYTES) {
                return null;
            }
            body.write(buffer, 0, read);
        }
        return body.toByteArray();
    }

    /**
     * Reads and drops what of the request body the answer did not read (up to {@value #DRAIN_BYTES}
     * bytes): a refusal (404, 405, 415) reads none of it, a 413 stops at the limit. Left unread, the
     * connection was closed under the client's next request on it (seen under load after 405, 415
     * and 404); read, it stays usable, and a 413's client reads its answer before any reset.
     */
    private static void drain(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        long dropped = 0;
        int read;
        while (dropped < DRAIN_BYTES && (read = in.read(buffer)) >= 0) {
            dropped += read;
        }
    }

    private static void write(HttpExchange exchange, WebhookAnswer answer) throws IOException {
        drain(exchange.getRequestBody());
        exchange.getResponseHeaders().set("Content-Type", answer.isJson() ? "application/json"
                : "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(answer.status(), answer.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer.body());
        }
    }
}
