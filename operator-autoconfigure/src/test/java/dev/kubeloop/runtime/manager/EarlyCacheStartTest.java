package dev.kubeloop.runtime.manager;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.controller.ControllerConfig;
import dev.kubeloop.testing.MockCluster;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The first half of the start, begun early ({@link ControllerManager#startCaches()}): the caches
 * list while the caller goes on, and {@link ControllerManager#start()} only waits for them. Every
 * check of a full start still holds: a missing CRD still fails the start (and nothing watches it),
 * no reconcile runs before start, and a stop before start stops what began.
 */
class EarlyCacheStartTest extends MockClusterTestSupport {

    private final RecordingReconciler reconciler = new RecordingReconciler();

    @Test
    void theCachesSyncBeforeStartAndNoReconcileRunsUntilStart() {
        client.resource(Widget.named("ns", "a")).create();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);

        manager.startCaches();

        eventually().until(() -> manager.informers().stream().allMatch(InformerStatus::synced));
        assertThat(manager.informers()).singleElement().satisfies(informer -> assertThat(informer.cachedObjects())
                .isEqualTo(1));
        assertThat(manager.state()).isEqualTo(ControllerManager.State.NEW);
        assertThat(manager.workersRunning()).isFalse();
        assertThat(reconciler.calls()).isEmpty();

        manager.start();

        assertThat(manager.isRunning()).isTrue();
        eventually().until(() -> reconciler.count("ns/a") == 1);
        assertThat(cluster.requests(r -> r.getPath().contains("/widgets") && !r.getPath().contains("watch=true")
                && "GET".equals(r.getMethod()))).as("one list, not one per half of the start").hasSize(1);
    }

    @Test
    void aMissingCrdFoundEarlyFailsTheStartNamingItAndNothingWatchesIt() {
        manager.stop();
        cluster.close();
        cluster = MockCluster.empty();
        manager = ControllerManager.builder(cluster.client()).build();
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);

        manager.startCaches();

        assertThatThrownBy(manager::start).isInstanceOfSatisfying(KubeloopConfigurationException.class,
                e -> assertThat(e.description()).contains("does not serve Widget (kubeloop.dev/v1)",
                        "CustomResourceDefinition widgets.kubeloop.dev is not installed"));
        assertThat(manager.state()).isEqualTo(ControllerManager.State.FAILED);
        assertThat(cluster.watches("/widgets")).isEmpty();
        assertThat(manager.informers()).singleElement().satisfies(informer -> assertThat(informer.started())
                .isFalse());
    }

    @Test
    void aStopBeforeStartStopsWhatTheEarlyStartBegan() {
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        // other tests' managers in this JVM may have left a start thread of theirs (retrying a gone server)
        Set<Thread> others = cacheStartThreads();
        manager.startCaches();
        eventually().until(() -> manager.informers().stream().allMatch(InformerStatus::watching));

        manager.stop();

        assertThat(manager.informers()).singleElement().satisfies(informer -> assertThat(informer.watching())
                .isFalse());
        eventually().until(() -> others.containsAll(cacheStartThreads()));
        assertThat(manager.state()).isEqualTo(ControllerManager.State.STOPPED);
        assertThatThrownBy(manager::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void noControllerCanBeRegisteredOnceTheCachesStart() {
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.startCaches();

        assertThatThrownBy(() -> manager.register(ControllerConfig.builder("other", Widget.class)
                .namespaces(List.of("other")).build(), new RecordingReconciler()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("registered before the manager starts");
    }

    @Test
    void startingTheCachesTwiceStartsThemOnce() {
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.startCaches();
        manager.startCaches();
        manager.start();

        assertThat(manager.informers()).singleElement().satisfies(informer -> assertThat(informer.watchRestarts())
                .isZero());
        assertThat(cluster.requests(r -> r.getPath().contains("/widgets") && r.getPath().contains("watch=true")))
                .hasSize(1);
    }

    private static Set<Thread> cacheStartThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(CacheStart.THREAD_NAME))
                .collect(Collectors.toSet());
    }
}
