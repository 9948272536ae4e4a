package dev.kubeloop.health;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.runtime.controller.Controller;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.controller.ReconcileOutcome;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import dev.kubeloop.testing.WorkerKiller;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/** The kubeloop health contributor: out of service until synced, up while running, down only when broken. */
class KubeloopHealthIndicatorTest {

    private MockCluster cluster;
    private ControllerManager manager;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.withWidgetCrd();
    }

    @AfterEach
    void tearDown() {
        manager.stop();
        cluster.close();
    }

    private ControllerManager manager(ControllerObserver... observers) {
        ControllerManager.Builder builder = ControllerManager.builder(cluster.client())
                .shutdownTimeout(Duration.ofSeconds(5));
        for (ControllerObserver observer : observers) {
            builder.observer(observer);
        }
        manager = builder.build();
        return manager;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> controller(Health health, String name) {
        return (Map<String, Object>) ((Map<String, Object>) health.getDetails().get("controllers")).get(name);
    }

    @Test
    void outOfServiceUntilStartedThenUpWithOneEntryPerController() {
        manager().register(ControllerConfig.builder("widget", Widget.class).workers(2).build(),
                new RecordingReconciler());
        KubeloopHealthIndicator indicator = new KubeloopHealthIndicator(manager);

        Health before = indicator.health();
        assertThat(before.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(before.getDetails()).containsEntry("state", "NEW");
        assertThat(controller(before, "widget")).containsEntry("status", "OUT_OF_SERVICE").containsEntry("synced", false);

        manager.start();
        cluster.client().resource(Widget.named("ns", "a")).create();
        Controller<?> controller = manager.controller("widget").orElseThrow();
        // the reconcile of ns/a has ended (nothing else writes, so nothing starts another one)
        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 1 && controller.activeWorkers() == 0
                && ((List<?>) controller(indicator.health(), "widget").get("informers")).toString()
                        .contains("cachedObjects=1"));

        Health running = indicator.health();
        assertThat(running.getStatus()).isEqualTo(Status.UP);
        assertThat(running.getDetails()).containsEntry("state", "RUNNING");
        Map<String, Object> widget = controller(running, "widget");
        assertThat(widget).containsEntry("status", "UP").containsEntry("synced", true);
        assertThat(widget.get("workers")).isEqualTo(Map.of("max", 2, "active", 0, "alive", 2));
        assertThat(widget.get("informers")).isEqualTo(List.of(Map.of("informer",
                "widgets.kubeloop.dev in all namespaces", "synced", true, "watching", true, "cachedObjects", 1)));

        manager.stop();
        assertThat(indicator.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
    }

    @Test
    void reconcilesThatFailForeverDoNotMakeItDown() {
        RecordingReconciler failing = new RecordingReconciler().behaving((widget, context) -> {
            throw new IllegalStateException("the database is down");
        });
        Controller<Widget> controller = manager().register(ControllerConfig.builder("widget", Widget.class).build(),
                failing);
        manager.start();
        cluster.client().resource(Widget.named("ns", "a")).create();
        eventually().until(() -> controller.count(ReconcileOutcome.ERROR) >= 3);

        assertThat(new KubeloopHealthIndicator(manager).health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void downWhenTheManagerFailedToStart() {
        cluster.close();
        cluster = MockCluster.empty(); // no Widget CRD
        manager().register(ControllerConfig.builder("widget", Widget.class).build(), new RecordingReconciler());
        assertThatThrownBy(manager::start).isNotNull();

        Health health = new KubeloopHealthIndicator(manager).health();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("state", "FAILED");
        assertThat((String) health.getDetails().get("error")).contains("widgets.kubeloop.dev");
    }

    @Test
    void downWhenAWorkerDied() {
        ControllerObserver failingListener = WorkerKiller.once("listener bug");
        Controller<Widget> controller = manager(failingListener).register(
                ControllerConfig.builder("widget", Widget.class).workers(2).build(), new RecordingReconciler());
        manager.start();
        cluster.client().resource(Widget.named("ns", "a")).create();
        eventually().until(() -> controller.status().aliveWorkers() == 1);

        Health health = new KubeloopHealthIndicator(manager).health();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        Map<String, Object> widget = controller(health, "widget");
        assertThat(widget).containsEntry("status", "DOWN");
        assertThat(widget.get("workers").toString()).contains("alive=1", "listener bug");
    }
}
