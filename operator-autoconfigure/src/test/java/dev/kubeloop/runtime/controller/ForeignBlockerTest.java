package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.queue.ExponentialBackoffRateLimiter;
import dev.kubeloop.queue.ItemState;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A primary whose owned apply is refused because a foreign object holds the name is queued again
 * as soon as that object is deleted, or becomes one this controller may take back (its controller
 * owner reference removed and the applied-by label set), instead of waiting for its backoff: here
 * a first retry after 10 minutes, so that only the blocker's event can get the apply through within
 * the test's deadline.
 */
class ForeignBlockerTest extends MockClusterTestSupport {

    private static final ObjectKey KEY = ObjectKey.of("ns", "a");
    private static final OwnerReference DATABASE = new OwnerReferenceBuilder().withApiVersion("kubeloop.dev/v1")
            .withKind("Database").withName("payments-db").withUid("3f0c9a1e-0000-4000-8000-00000000d8b1")
            .withController(true).build();

    private Controller<Widget> controller;

    @BeforeEach
    void registerController() {
        manager.stop();
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .rateLimiter(() -> new ExponentialBackoffRateLimiter<>(Duration.ofMinutes(10), Duration.ofMinutes(20)))
                .build();
        controller = manager.register(ControllerConfig.builder("widget", Widget.class).owns(List.of(ConfigMap.class))
                .build(), new RecordingReconciler().behaving((widget, context) -> {
                    context.apply(new ConfigMapBuilder().withNewMetadata().withName("a").endMetadata()
                            .addToData("color", widget.getSpec().getColor()).build());
                    return Result.done();
                }));
    }

    @Test
    void otherChangesOfTheBlockerDoNotRetryThePrimary() {
        blockedBy(blocker(DATABASE));

        client.configMaps().inNamespace("ns").withName("a").edit(configMap -> {
            configMap.getData().put("index.html", "still theirs");
            return configMap;
        });
        // a later change that does wake it: had the first one queued the primary, it would have failed again first
        client.configMaps().inNamespace("ns").withName("a").delete();

        eventually().until(() -> "blue".equals(color()));
        assertThat(controller.count(ReconcileOutcome.ERROR)).as("no retry for the data change").isEqualTo(1);
    }

    @Test
    void deletingTheBlockerRequeuesThePrimaryAtOnce() {
        blockedBy(blocker(DATABASE));

        client.configMaps().inNamespace("ns").withName("a").delete();

        eventually().until(() -> "blue".equals(color()));
        assertThat(controller.count(ReconcileOutcome.ERROR)).isEqualTo(1);
    }

    @Test
    void aBlockerThatBecomesThisControllersRequeuesThePrimary() {
        blockedBy(blocker(DATABASE));

        // the Database lets go of it, and it is marked as this controller's: the apply may take it back
        // (no Widget was its owner before or after, so no owner event queues the Widget)
        client.configMaps().inNamespace("ns").withName("a").edit(configMap -> {
            configMap.getMetadata().setOwnerReferences(List.of());
            configMap.getMetadata().setLabels(Map.of(ControllerWrites.APPLIED_BY, "widget"));
            return configMap;
        });

        eventually().until(() -> "blue".equals(color()));
        assertThat(controller.count(ReconcileOutcome.ERROR)).isEqualTo(1);
        assertThat(client.configMaps().inNamespace("ns").withName("a").get().getMetadata().getOwnerReferences())
                .extracting(OwnerReference::getName).containsExactly("a");
    }

    /** Creates {@code existing}, starts the controller and the Widget, and waits for the refusal's backoff. */
    private void blockedBy(ConfigMap existing) {
        client.resource(existing).create();
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> controller.count(ReconcileOutcome.ERROR) == 1
                && controller.state(KEY) == ItemState.WAITING);
    }

    private static ConfigMap blocker(OwnerReference controllerReference) {
        return new ConfigMapBuilder().withNewMetadata().withName("a").withNamespace("ns")
                .withOwnerReferences(controllerReference).endMetadata().addToData("index.html", "theirs").build();
    }

    private String color() {
        ConfigMap configMap = client.configMaps().inNamespace("ns").withName("a").get();
        return configMap == null || configMap.getData() == null ? null : configMap.getData().get("color");
    }
}
