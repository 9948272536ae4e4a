package dev.kubeloop.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import dev.kubeloop.api.webhook.Validator;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What one hostile body may cost the heap, counted by the bytes the answering thread allocates
 * (the JVM's per-thread allocation counter, not heap timing): a body that is not the review the
 * webhook expects is refused before any object is built from it, and nesting is capped.
 */
class WebhookBodyCostTest {

    private final Webhooks webhooks = Webhooks.builder(Reviews.SERIALIZATION)
            .validator(Shelf.class, new Validator<Shelf>() {
            }).build();
    private final String path = webhooks.all().get(0).path();

    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** {@code envelope} followed by a request of {@code size} bytes of {@code [[],[],...]}. */
    private static byte[] body(String envelope, int size) {
        StringBuilder body = new StringBuilder(size + 128).append('{').append(envelope)
                .append(",\"request\":{\"uid\":\"u\",\"object\":[");
        while (body.length() < size) {
            body.append("[],");
        }
        return body.append("[]]}}").toString().getBytes(StandardCharsets.US_ASCII);
    }

    private long allocatedWhile(Runnable work) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        work.run();
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void aBodyThatIsNotTheExpectedReviewIsRefusedBeforeAnyObjectIsBuiltFromIt() {
        byte[] body = body("\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\"",
                WebhookHttpHandler.MAX_BODY_BYTES - 64);
        webhooks.handle(path, body(
                "\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\"", 1024)); // warm

        WebhookAnswer[] answer = new WebhookAnswer[1];
        long allocated = allocatedWhile(() -> answer[0] = webhooks.handle(path, body));

        assertThat(answer[0].status()).isEqualTo(400);
        assertThat(answer[0].bodyText()).contains("expected an admission.k8s.io/v1 AdmissionReview, got "
                + "admission.k8s.io/v1beta1 AdmissionReview");
        // a tree of it costs ~17 times the body; reading it as a stream, a parser's buffers
        assertThat(allocated).as("bytes allocated answering a %d-byte body", body.length).isLessThan(body.length / 4);
    }

    @Test
    void nestingDeeperThanAnyKubernetesObjectIsRefusedWithTheReason() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        byte[] body = ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\","
                + "\"object\":" + deep + "}}").getBytes(StandardCharsets.US_ASCII);

        WebhookAnswer answer = webhooks.handle(path, body);

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.bodyText()).contains("nested deeper than " + Json.MAX_NESTING_DEPTH + " levels");
    }

    @Test
    void anObjectAsDeepAsTheLimitAllowsIsRead() {
        // the review, its request, the object, then a field nesting objects to the limit
        String nested = "{\"a\":".repeat(Json.MAX_NESTING_DEPTH - 3) + "1" + "}".repeat(Json.MAX_NESTING_DEPTH - 3);
        var request = Reviews.admissionRequest("CREATE", "v2");
        request.set("object", Reviews.tree(Shelf.named("oak", 1)));
        String review = new String(Reviews.admission(request), StandardCharsets.UTF_8);
        byte[] body = review.replaceFirst("\"object\":\\{", "\"object\":{\"extra\":" + nested + ",")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(new String(body, StandardCharsets.UTF_8)).contains("\"extra\":{");

        WebhookAnswer answer = webhooks.handle(path, body);

        assertThat(answer.bodyText()).contains("\"allowed\":true");
    }
}
