package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.kubeloop.api.ApiRefusal;
import dev.kubeloop.api.Result;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.ApiError;
import dev.kubeloop.testing.ApiFaults.Fault;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A write the API server refuses as invalid (422; 400 alike): no retry can fix it until the spec
 * changes. Reported once per object and generation, with the API server's field message, as a log
 * line without a stack trace and a Warning event; still retried with backoff; and the reconciler
 * can read the refusal to set a condition.
 */
class InvalidWritesTest extends MockClusterTestSupport {

    private static final String CONFIG_MAPS = "/api/v1/namespaces/ns/configmaps/[^/]+";
    private static final String DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-'";

    private CapturedLogs logs;

    @BeforeEach
    void fastBackoff() {
        logs = CapturedLogs.of(Controller.class, Level.INFO);
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .rateLimiter(() -> new ExponentialBackoffRateLimiter<>(Duration.ofMillis(1), Duration.ofMillis(50)))
                .build();
    }

    @AfterEach
    void releaseLogs() {
        logs.close();
    }

    @Test
    void anInvalidObjectIsReportedOncePerGenerationWithTheFieldAndRetriedWithoutStackTraces() {
        Fault invalid = cluster.faults().on("PATCH", CONFIG_MAPS).answer(ApiError.invalid("metadata.name", DNS_LABEL));
        List<ApiRefusal> seenByReconciler = new CopyOnWriteArrayList<>();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .owns(List.of(ConfigMap.class)).build(), new RecordingReconciler().behaving((widget, context) -> {
                    try {
                        context.apply(new ConfigMapBuilder().withNewMetadata().withName("a-config").endMetadata()
                                .withData(Map.of("size", String.valueOf(widget.getSpec().getSize()))).build());
                    } catch (KubernetesClientException e) {
                        ApiRefusal.of(e).ifPresent(seenByReconciler::add);
                        throw e;
                    }
                    return Result.done();
                }));
        manager.start();
        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> controller.count(ReconcileOutcome.ERROR) >= 5);
        eventually().until(() -> events().size() == 1);
        client.resources(Widget.class).inNamespace("ns").withName("a").edit(widget -> {
            widget.getSpec().setSize(2);
            return widget;
        });
        eventually().until(() -> events().stream().mapToInt(e -> e.getCount() == null ? 1 : e.getCount()).sum() == 2);
        long errorsBeforeFix = controller.count(ReconcileOutcome.ERROR);
        invalid.off();

        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) >= 1 && controller.queueStats().idle());
        List<ILoggingEvent> refused = logs.events(Level.ERROR, "key=ns/a");
        assertThat(refused).as("one line per generation, %d failed reconciles", errorsBeforeFix).hasSize(2)
                .allSatisfy(line -> {
                    assertThat(line.getThrowableProxy()).as("stack trace").isNull();
                    assertThat(line.getFormattedMessage()).contains("refused as invalid", "controller=widget",
                            "configmaps \"a-config\" is invalid", "metadata.name", DNS_LABEL);
                });
        assertThat(events()).allSatisfy(event -> {
            assertThat(event.getType()).isEqualTo("Warning");
            assertThat(event.getReason()).isEqualTo("Invalid");
            assertThat(event.getInvolvedObject().getName()).isEqualTo("a");
            assertThat(event.getMessage()).contains("metadata.name", DNS_LABEL);
        });
        assertThat(seenByReconciler).isNotEmpty().allSatisfy(refusal -> {
            assertThat(refusal.code()).isEqualTo(422);
            assertThat(refusal.invalid()).isTrue();
            assertThat(refusal.causes()).singleElement().satisfies(cause -> {
                assertThat(cause.field()).isEqualTo("metadata.name");
                assertThat(cause.message()).isEqualTo(DNS_LABEL);
            });
        });
        assertThat(logs.events(Level.INFO, "recovered")).hasSize(1);
    }

    private List<Event> events() {
        return client.v1().events().inNamespace("ns").list().getItems().stream()
                .filter(event -> "Invalid".equals(event.getReason())).toList();
    }
}
