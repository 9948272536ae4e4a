package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.ReconcileContext;
import dev.kubeloop.api.ResourceReconciler;
import dev.kubeloop.api.Result;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.WorkQueue;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.Widget;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ResourceReconciler#errorStatus}: the runtime applies the status it returns once per
 * distinct error (class and message, for one generation), not once per retry; a new error, a new
 * generation or a success in between report again. On the mock API server, with a 1 ms backoff so
 * that retries come quickly.
 */
class ErrorStatusTest extends MockClusterTestSupport {

    private static final String STATUS_PATH = "/apis/kubeloop.dev/v1/namespaces/ns/widgets/a/status";

    /** What the reconcile throws next; null: it succeeds. */
    private final AtomicReference<String> failure = new AtomicReference<>("boom");
    private final AtomicInteger attempts = new AtomicInteger();
    private final List<String> reported = new CopyOnWriteArrayList<>();
    private Controller<Widget> controller;

    @BeforeEach
    void startController() {
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .rateLimiter(() -> new ExponentialBackoffRateLimiter<>(Duration.ofMillis(1), Duration.ofMillis(20)))
                .build();
        controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                new ResourceReconciler<Widget>() {
            @Override
            public Result reconcile(Widget widget, ReconcileContext<Widget> context) {
                attempts.incrementAndGet();
                String message = failure.get();
                if (message != null) {
                    throw new IllegalStateException(message);
                }
                return Result.done();
            }

            @Override
            public Optional<Widget> errorStatus(Widget widget, ReconcileContext<Widget> context, Exception error) {
                reported.add(error.getMessage());
                widget.setStatus(new Widget.Status());
                widget.getStatus().setMessage(error.getMessage());
                return Optional.of(widget);
            }
        });
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
    }

    @Test
    void theSameErrorIsWrittenIntoStatusOnceNotPerRetry() {
        eventually().until(() -> attempts.get() >= 5);

        assertThat(reported).containsExactly("boom");
        assertThat(statusMessage()).isEqualTo("boom");
        assertThat(statusApplies()).as("status applies sent").isEqualTo(1);
    }

    @Test
    void aDifferentErrorIsWrittenAgainOnce() {
        eventually().until(() -> "boom".equals(statusMessage()));

        failure.set("bang");
        eventually().until(() -> "bang".equals(statusMessage()));
        int after = attempts.get();
        eventually().until(() -> attempts.get() >= after + 5);

        assertThat(reported).containsExactly("boom", "bang");
        assertThat(statusApplies()).isEqualTo(2);
    }

    @Test
    void aNewGenerationReportsTheSameErrorAgain() {
        eventually().until(() -> "boom".equals(statusMessage())); // no write of the runtime's after that one

        client.resources(Widget.class).inNamespace("ns").withName("a").edit(widget -> {
            widget.getSpec().setColor("green");
            return widget;
        });

        eventually().until(() -> reported.size() == 2);
        assertThat(reported).containsExactly("boom", "boom");
    }

    @Test
    void aSuccessInBetweenReportsTheSameErrorAgain() {
        eventually().until(() -> reported.size() == 1);
        failure.set(null);
        int before = attempts.get();
        eventually().until(() -> attempts.get() > before);

        failure.set("boom");
        controller.enqueue(ObjectKey.of("ns", "a"), WorkQueue.NORMAL_PRIORITY);

        eventually().until(() -> reported.size() == 2);
        assertThat(reported).containsExactly("boom", "boom");
    }

    private String statusMessage() {
        Widget widget = client.resources(Widget.class).inNamespace("ns").withName("a").get();
        return widget == null || widget.getStatus() == null ? null : widget.getStatus().getMessage();
    }

    private long statusApplies() {
        return cluster.applies(STATUS_PATH).size();
    }
}
