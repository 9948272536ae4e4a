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

    /** An API server slow or restarting while the operator starts: discovery is retried, not a crash loop. */
    @Test
    void discoveryThatFailsForAReasonThatPassesIsRetriedWithinTheCacheSyncTimeout() {
        cluster = MockCluster.withWidgetCrd();
        cluster.server().expect().get().withPath("/apis/kubeloop.dev/v1")
                .andReturn(503, "{\"kind\":\"Status\",\"code\":503}").times(2);
        manager = ControllerManager.builder(withoutRetries()).cacheSyncTimeout(Duration.ofSeconds(60)).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), new RecordingReconciler());

        try (CapturedLogs logs = CapturedLogs.of(dev.kubeloop.runtime.cache.ServedResourceCheck.class, Level.WARN)) {
            manager.start();

            assertThat(manager.isRunning()).isTrue();
            assertThat(logs.events(Level.WARN, "Cannot ask the API server")).as("one line, not one per attempt")
                    .singleElement().satisfies(line -> assertThat(line.getFormattedMessage())
                            .contains("GET /apis/kubeloop.dev/v1", "retrying for up to"));
        }
    }

    @Test
    void discoveryThatKeepsFailingFailsStartupOnceTheCacheSyncTimeoutHasPassed() {
        cluster = MockCluster.withWidgetCrd();
        cluster.server().expect().get().withPath("/apis/kubeloop.dev/v1")
                .andReturn(503, "{\"kind\":\"Status\",\"code\":503}").always();
        manager = ControllerManager.builder(withoutRetries()).cacheSyncTimeout(Duration.ofSeconds(2)).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), new RecordingReconciler());

        assertThatThrownBy(manager::start).isInstanceOfSatisfying(KubeloopConfigurationException.class, e ->
                assertThat(e.description()).contains("which resources it serves (GET /apis/kubeloop.dev/v1)",
                        "attempts over 2 s, kubeloop.cache-sync-timeout"));
        assertThat(manager.isRunning()).isFalse();
    }

    @Test
    void discoveryRefusedForbiddenFailsStartupAtOnce() {
        cluster = MockCluster.withWidgetCrd();
        cluster.server().expect().get().withPath("/apis/kubeloop.dev/v1")
                .andReturn(403, "{\"kind\":\"Status\",\"code\":403,\"reason\":\"Forbidden\"}").always();
        manager = ControllerManager.builder(withoutRetries()).cacheSyncTimeout(Duration.ofMinutes(5)).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), new RecordingReconciler());

        // a wrong identity does not pass with time: no retries (the five minutes would fail this test's own timeout)
        assertThatThrownBy(manager::start).isInstanceOfSatisfying(KubeloopConfigurationException.class, e ->
                assertThat(e.description()).contains("GET /apis/kubeloop.dev/v1").doesNotContain("attempts"));
    }

    /**
     * The mock's client without fabric8's own retries of 5xx answers (10 by default, with backoff),
     * so that each failure the mock sends reaches the check: what it sees once those are spent.
     */
    private KubernetesClient withoutRetries() {
        return new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
                new io.fabric8.kubernetes.client.ConfigBuilder(cluster.client().getConfiguration())
                        .withRequestRetryBackoffLimit(0).build()).build();
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
