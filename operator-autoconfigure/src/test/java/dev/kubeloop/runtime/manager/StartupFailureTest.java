package dev.kubeloop.runtime.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.testing.CapturedLogs;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Startup fails fast and says why: missing CRDs, caches that do not sync, duplicate names. */
class StartupFailureTest {

    private MockCluster cluster;
    private ControllerManager manager;

    @AfterEach
    void tearDown() {
        manager.stop();
        cluster.close();
    }

    @Test
    void aMissingCrdFailsStartupNamingItInsteadOfWatchingForever() {
        cluster = MockCluster.empty();
        manager = ControllerManager.builder(cluster.client()).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), new RecordingReconciler());

        assertThatThrownBy(manager::start).isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
            assertThat(e.description()).contains("does not serve Widget (kubeloop.dev/v1)", "reconciler 'widget'",
                    "CustomResourceDefinition widgets.kubeloop.dev is not installed",
                    cluster.client().getMasterUrl().toString());
            assertThat(e.action()).contains("Install the CustomResourceDefinition widgets.kubeloop.dev");
        });
        assertThat(cluster.watches("/widgets")).isEmpty();
        assertThat(manager.isRunning()).isFalse();
    }

    /** The first question of a failed install, answered in the log before anything is asked of the server. */
    @Test
    void aFailingStartHasFirstLoggedWhichApiServerAndWhichIdentity() {
        cluster = MockCluster.empty();
        manager = ControllerManager.builder(cluster.client()).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), new RecordingReconciler());

        try (CapturedLogs logs = CapturedLogs.of(ControllerManager.class, Level.INFO)) {
            assertThatThrownBy(manager::start).isInstanceOf(KubeloopConfigurationException.class);

            assertThat(logs.events(Level.INFO, "Kubeloop connects to the API server at")).singleElement()
                    .satisfies(line -> assertThat(line.getFormattedMessage()).isEqualTo(
                            "Kubeloop connects to the API server at " + cluster.client().getMasterUrl()
                                    + " as the holder of a bearer token (context fabric8-mock-server-context, "
                                    + "user entry fabric8-mock-server-user)"));
        }
    }

    @Test
    void cachesThatDoNotSyncInTimeFailStartupNamingTheResourceScopeAndApiServer() {
        cluster = MockCluster.withWidgetCrd();
        KubernetesClient client = cluster.client();
        cluster.server().expect().get().delay(3_000)
                .withPath("/apis/kubeloop.dev/v1/namespaces/slow/widgets?resourceVersion=0")
                .andReturn(200, "{\"items\":[],\"metadata\":{\"resourceVersion\":\"1\"}}").once();
        manager = ControllerManager.builder(client).cacheSyncTimeout(Duration.ofMillis(300)).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).namespaces(List.of("slow"))
                .owns(List.of(ConfigMap.class)).build(), new RecordingReconciler());

        assertThatThrownBy(manager::start).isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
            assertThat(e.description()).contains("widgets.kubeloop.dev in namespace slow", "did not sync within",
                    client.getMasterUrl().toString());
            assertThat(e.action()).contains("kubeloop.cache-sync-timeout", "list and watch widgets.kubeloop.dev");
        });
        assertThat(manager.isRunning()).isFalse();
    }

    @Test
    void twoControllersWithOneNameAreRejected() {
        cluster = MockCluster.withWidgetCrd();
        manager = ControllerManager.builder(cluster.client()).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), new RecordingReconciler());

        assertThatThrownBy(() -> manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                new RecordingReconciler()))
                .isInstanceOfSatisfying(KubeloopConfigurationException.class, e -> {
                    assertThat(e.description()).isEqualTo("Two reconcilers are named 'widget'.");
                    assertThat(e.setting()).isEqualTo("name");
                });
    }
}
