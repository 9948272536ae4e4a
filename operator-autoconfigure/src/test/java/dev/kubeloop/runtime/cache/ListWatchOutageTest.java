package dev.kubeloop.runtime.cache;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.kubeloop.health.KubeloopHealthIndicator;
import dev.kubeloop.metrics.KubeloopMetrics;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.ApiError;
import dev.kubeloop.testing.ApiFaults.Fault;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * An informer whose watch cannot be re-established (the API server answers every watch and list
 * of its resource with an error, as it does while etcd fails, or with 404 once the CRD is gone)
 * is reported when it starts failing and when it recovers: one line each, with the informer and
 * the reason, never one per fabric8 retry; counted in a metric; shown in the health details while
 * it lasts, readiness unchanged (see {@link KubeloopHealthIndicator}). After recovery the
 * controller reconciles what changed.
 */
class ListWatchOutageTest {

    private static final String WIDGETS = "/apis/kubeloop.dev/v1/namespaces/ns/widgets";

    private final MockCluster cluster = MockCluster.withWidgetCrd();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RecordingReconciler reconciler = new RecordingReconciler();
    private ControllerManager manager;

    @AfterEach
    void tearDown() {
        cluster.faults().off();
        if (manager != null) {
            manager.stop();
        }
        cluster.close();
    }

    @Test
    void aWatchThatCannotReconnectIsReportedOnceWhenItStartsFailingAndOnceWhenItRecovers() {
        start();
        try (CapturedLogs logs = CapturedLogs.of(ListWatchMonitor.class, Level.INFO)) {
            Fault outage = cluster.faults().on("GET", WIDGETS).answer(ApiError.internalError());
            cluster.cutWatchesOnceOpen(WIDGETS, false);

            eventually().until(() -> manager.informers().get(0).listWatchFailing());
            // the monitor's thread publishes the state, then writes the line: the order between the two
            // is not promised (it failed on a loaded machine), only that both come
            eventually().until(() -> !logs.events(Level.WARN, "List/watch failing").isEmpty());
            InformerStatus failing = manager.informers().get(0);
            assertThat(failing.listWatchFailure()).startsWith("HTTP 500").contains("etcdserver: request timed out");
            assertThat(logs.events(Level.WARN, "List/watch failing")).singleElement().satisfies(line -> assertThat(
                    line.getFormattedMessage()).contains("widgets.kubeloop.dev in namespace ns", "HTTP 500"));
            assertThat(failures()).isEqualTo(1);
            assertThat(registry.get(KubeloopMetrics.INFORMER_LIST_WATCH_FAILING).gauge().value()).isEqualTo(1);
            Health health = new KubeloopHealthIndicator(manager).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(informerDetails(health)).containsKey("listWatchFailingSince")
                    .containsEntry("listWatchFailure", failing.listWatchFailure());

            outage.off();
            eventually().until(() -> !manager.informers().get(0).listWatchFailing());
            eventually().until(() -> !logs.events(Level.INFO, "List/watch recovered").isEmpty());
            cluster.client().resource(Widget.named("ns", "after")).create();
            eventually().until(() -> reconciler.count("ns/after") > 0);

            assertThat(logs.events(Level.WARN, "List/watch failing")).hasSize(1);
            assertThat(logs.events(Level.INFO, "List/watch recovered")).singleElement().satisfies(line -> assertThat(
                    line.getFormattedMessage()).contains("widgets.kubeloop.dev in namespace ns"));
            assertThat(logs.events().stream().filter(event -> event.getThrowableProxy() != null)).isEmpty();
            assertThat(failures()).isEqualTo(1);
            assertThat(registry.get(KubeloopMetrics.INFORMER_LIST_WATCH_FAILING).gauge().value()).isZero();
            assertThat(informerDetails(new KubeloopHealthIndicator(manager).health()))
                    .doesNotContainKey("listWatchFailure");
        }
    }

    @Test
    void aResourceNoLongerServedIsReportedWithTheApiServersAnswer() {
        start();
        try (CapturedLogs logs = CapturedLogs.of(ListWatchMonitor.class, Level.INFO)) {
            cluster.faults().on("GET", WIDGETS).answer(ApiError.notFound());
            cluster.cutWatchesOnceOpen(WIDGETS, false);

            eventually().until(() -> manager.informers().get(0).listWatchFailing());
            eventually().until(() -> !logs.events(Level.WARN, "List/watch failing").isEmpty());
            assertThat(manager.informers().get(0).listWatchFailure()).startsWith("HTTP 404");
            assertThat(logs.events(Level.WARN, "List/watch failing")).singleElement().satisfies(line -> assertThat(
                    line.getFormattedMessage()).contains("HTTP 404", "CustomResourceDefinition"));
        }
    }

    @Test
    void aWatchReconnectingAsUsualIsNotFailing() {
        start();
        try (CapturedLogs logs = CapturedLogs.of(ListWatchMonitor.class, Level.INFO)) {
            for (int i = 0; i < 3; i++) {
                cluster.cutWatchesOnceOpen(WIDGETS, false);
                eventually().until(() -> manager.informers().get(0).watching());
            }
            cluster.client().resource(Widget.named("ns", "after")).create();
            eventually().until(() -> reconciler.count("ns/after") > 0);

            assertThat(logs.events()).isEmpty();
            assertThat(failures()).isZero();
        }
    }

    private double failures() {
        return registry.get(KubeloopMetrics.INFORMER_LIST_WATCH_FAILURES).functionCounter().count();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> informerDetails(Health health) {
        Map<String, Object> controllers = (Map<String, Object>) health.getDetails().get("controllers");
        Map<String, Object> widget = (Map<String, Object>) controllers.get("widget");
        return ((List<Map<String, Object>>) widget.get("informers")).get(0);
    }

    private void start() {
        manager = ControllerManager.builder(cluster.client()).shutdownTimeout(Duration.ofSeconds(5))
                .observer(new KubeloopMetrics(registry)).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).namespaces(List.of("ns")).build(),
                reconciler);
        manager.start();
        eventually().until(() -> manager.informers().get(0).watching());
    }
}
