package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.api.TerminalException;
import dev.kubeloop.runtime.KubeloopConfigurationException;
import dev.kubeloop.runtime.cache.InformerStatus;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.runtime.manager.ControllerObserver;
import dev.kubeloop.testing.Eventually;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.Widget;
import dev.kubeloop.testing.WorkerKiller;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the runtime tells observers and keeps for health and introspection: keys in flight, recent
 * errors, the last success, dead workers, informer restarts and failures, the manager's state.
 */
class ObservabilityTest extends MockClusterTestSupport {

    /** The list and watch paths of a Widget informer in namespace {@code watched}, as fabric8 7.8 requests them. */
    private static final String LIST = "/apis/kubeloop.dev/v1/namespaces/watched/widgets?resourceVersion=0";
    private static final String WATCH = "/apis/kubeloop.dev/v1/namespaces/watched/widgets"
            + "?allowWatchBookmarks=true&resourceVersion=100&timeoutSeconds=600&watch=true";
    private static final String LISTED = "{\"apiVersion\":\"kubeloop.dev/v1\",\"kind\":\"WidgetList\",\"items\":[],"
            + "\"metadata\":{\"resourceVersion\":\"100\"}}";

    private final CountDownLatch release = new CountDownLatch(1);
    private final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    protected void beforeStop() {
        release.countDown();
    }

    /** Records what it hears, as "callback:detail". */
    private ControllerObserver recordingObserver() {
        return new ControllerObserver() {
            @Override
            public ControllerListener controllerRegistered(ControllerConfig<?> config) {
                events.add("registered:" + config.name());
                return new ControllerListener() {
                    @Override
                    public void reconcileStarted(ObjectKey key) {
                        events.add("started:" + key);
                    }

                    @Override
                    public void reconcileFinished(ReconcileReport report) {
                        events.add("finished:" + report.key() + ":" + report.outcome() + ":" + report.attempt());
                    }

                    @Override
                    public void workerDied(Throwable error) {
                        events.add("workerDied:" + error.getMessage());
                    }
                };
            }

            @Override
            public void managerStarting(ControllerManager manager) {
                events.add("starting:" + manager.state());
            }

            @Override
            public void managerStarted(ControllerManager manager) {
                events.add("started:" + manager.state());
            }

            @Override
            public void managerFailed(ControllerManager manager, Throwable error) {
                events.add("failed:" + manager.state());
            }

            @Override
            public void informerFailed(InformerStatus informer, Throwable error) {
                events.add("informerFailed:" + informer.describe());
            }
        };
    }

    private ControllerManager managerWith(ControllerObserver... observers) {
        ControllerManager.Builder builder = ControllerManager.builder(client).shutdownTimeout(Duration.ofSeconds(5))
                .recentErrors(3);
        for (ControllerObserver observer : observers) {
            builder.observer(observer);
        }
        manager.stop();
        manager = builder.build();
        return manager;
    }

    @Test
    void observersHearTheManagersLifeAndEveryReconcile() {
        managerWith(recordingObserver());
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), new RecordingReconciler());
        assertThat(manager.state()).isEqualTo(ControllerManager.State.NEW);

        manager.start();
        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> events.contains("finished:ns/a:SUCCESS:1"));
        assertThat(events).containsSubsequence("registered:widget", "starting:STARTING", "started:RUNNING",
                "started:ns/a", "finished:ns/a:SUCCESS:1");
        assertThat(manager.state()).isEqualTo(ControllerManager.State.RUNNING);
        manager.stop();
        assertThat(manager.state()).isEqualTo(ControllerManager.State.STOPPED);
    }

    @Test
    void aFailedStartIsReportedAndLeavesTheManagerFailed() {
        cluster.server().expect().get().withPath("/apis/kubeloop.dev/v1/namespaces/denied/widgets?resourceVersion=0")
                .andReturn(403, new StatusBuilder().withCode(403).withMessage("forbidden").build()).always();
        managerWith(recordingObserver());
        manager.register(ControllerConfig.builder("widget", Widget.class).namespaces(List.of("denied")).build(),
                new RecordingReconciler());

        assertThatThrownBy(manager::start).isInstanceOf(KubeloopConfigurationException.class);

        assertThat(manager.state()).isEqualTo(ControllerManager.State.FAILED);
        assertThat(manager.failure()).containsInstanceOf(KubeloopConfigurationException.class);
        assertThat(events).contains("failed:FAILED");
    }

    @Test
    void statusShowsKeysInFlightWithTheirAgeAndTheLastSuccess() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            started.countDown();
            release.await(Eventually.DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).workers(2)
                .build(), reconciler);
        manager.start();
        assertThat(controller.status().lastSuccess()).isNull();
        Instant before = Instant.now();
        client.resource(Widget.named("ns", "slow")).create();
        assertThat(started.await(Eventually.DEADLINE_MILLIS, TimeUnit.MILLISECONDS)).isTrue();

        ControllerStatus running = controller.status();
        assertThat(running.started()).isTrue();
        assertThat(running.activeWorkers()).isEqualTo(1);
        assertThat(running.maxWorkers()).isEqualTo(2);
        assertThat(running.aliveWorkers()).isEqualTo(2);
        assertThat(running.inFlight()).singleElement().satisfies(inFlight -> {
            assertThat(inFlight.key()).isEqualTo(ObjectKey.of("ns", "slow"));
            assertThat(inFlight.since()).isBetween(before.minusSeconds(1), Instant.now());
            assertThat(inFlight.age()).isGreaterThanOrEqualTo(Duration.ZERO);
        });
        assertThat(running.queue().processing()).isEqualTo(1);
        assertThat(running.synced()).isTrue();
        assertThat(running.broken()).isFalse();

        release.countDown();
        eventually().until(() -> controller.status().lastSuccess() != null);
        ControllerStatus done = controller.status();
        assertThat(done.inFlight()).isEmpty();
        assertThat(done.activeWorkers()).isZero();
        assertThat(done.lastSuccess()).isAfterOrEqualTo(before.minusSeconds(1));
        assertThat(done.outcomes()).containsEntry(ReconcileOutcome.SUCCESS, 1L);
    }

    @Test
    void theLastErrorsAreKeptNewestFirstAndBounded() {
        managerWith();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            if (widget.getMetadata().getName().equals("retried") && context.retryCount() < 2) {
                throw new IllegalStateException("not yet, attempt " + (context.retryCount() + 1));
            }
            if (widget.getMetadata().getName().startsWith("bad-")) {
                throw new TerminalException("invalid spec of " + widget.getMetadata().getName());
            }
            return Result.done();
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                reconciler);
        manager.start();

        client.resource(Widget.named("ns", "retried")).create();
        eventually().until(() -> controller.count(ReconcileOutcome.SUCCESS) == 1);
        assertThat(controller.status().recentErrors())
                .extracting(ControllerStatus.RecentError::attempt, ControllerStatus.RecentError::message,
                        ControllerStatus.RecentError::outcome, ControllerStatus.RecentError::error)
                .containsExactly(
                        tuple(2, "not yet, attempt 2", ReconcileOutcome.ERROR,
                                IllegalStateException.class.getName()),
                        tuple(1, "not yet, attempt 1", ReconcileOutcome.ERROR,
                                IllegalStateException.class.getName()));

        for (int i = 1; i <= 3; i++) {
            client.resource(Widget.named("ns", "bad-" + i)).create();
            int done = i;
            eventually().until(() -> controller.count(ReconcileOutcome.TERMINAL_ERROR) == done);
        }
        List<ControllerStatus.RecentError> errors = controller.status().recentErrors();
        assertThat(errors).as("bounded to the 3 newest").extracting(e -> e.key().name())
                .containsExactly("bad-3", "bad-2", "bad-1");
        assertThat(errors.get(0).message()).isEqualTo("invalid spec of bad-3");
        assertThat(errors.get(0).time()).isAfterOrEqualTo(errors.get(2).time());
    }

    @Test
    void aWorkerThatDiesIsReportedAndTheOthersKeepWorking() {
        // an Error escapes the worker's loop
        ControllerObserver failingQueueListener = WorkerKiller.once("listener bug");
        managerWith(recordingObserver(), failingQueueListener);
        RecordingReconciler reconciler = new RecordingReconciler();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).workers(2)
                .build(), reconciler);
        manager.start();

        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> events.contains("workerDied:listener bug"));
        ControllerStatus status = controller.status();
        assertThat(status.aliveWorkers()).isEqualTo(1);
        assertThat(status.workerFailure()).contains("listener bug");
        assertThat(status.broken()).isTrue();

        client.resource(Widget.named("ns", "b")).create();
        eventually().until(() -> reconciler.count("ns/b") == 1);
    }

    @Test
    void anObserverThatThrowsDoesNotStopReconciling() {
        ControllerObserver throwing = new ControllerObserver() {
            @Override
            public ControllerListener controllerRegistered(ControllerConfig<?> config) {
                return new ControllerListener() {
                    @Override
                    public void reconcileFinished(ReconcileReport report) {
                        throw new IllegalStateException("metrics backend down");
                    }

                    @Override
                    public void added(int priority) {
                        throw new IllegalStateException("metrics backend down");
                    }
                };
            }
        };
        managerWith(throwing, recordingObserver());
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).build(),
                new RecordingReconciler());
        manager.start();

        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> events.contains("finished:ns/a:SUCCESS:1"));
        assertThat(controller.count(ReconcileOutcome.SUCCESS)).isEqualTo(1);
        assertThat(controller.status().broken()).isFalse();
    }

    @Test
    void informersReportTheirCacheAndCountWatchRestartsAfter410Gone() {
        cluster.server().expect().get().withPath(LIST).andReturn(200, LISTED).once();
        cluster.server().expect().get().withPath(WATCH).andUpgradeToWebSocket().open().waitFor(50)
                .andEmit(new WatchEvent(new StatusBuilder().withCode(410).withReason("Expired")
                        .withMessage("too old resource version: 100").build(), "ERROR"))
                .done().once();
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .namespaces(List.of("watched")).build(), new RecordingReconciler());
        manager.start();

        eventually().until(() -> manager.informers().get(0).watchRestarts() == 1);
        client.resource(Widget.named("watched", "a")).create();
        eventually().until(() -> manager.informers().get(0).cachedObjects() == 1);
        InformerStatus informer = controller.status().informers().get(0);
        assertThat(informer.resource()).isEqualTo("widgets.kubeloop.dev");
        assertThat(informer.group()).isEqualTo("kubeloop.dev");
        assertThat(informer.version()).isEqualTo("v1");
        assertThat(informer.kind()).isEqualTo("Widget");
        assertThat(informer.namespace()).isEqualTo("watched");
        assertThat(informer.started()).isTrue();
        assertThat(informer.synced()).isTrue();
        assertThat(informer.failed()).isFalse();
        assertThat(informer.describe()).isEqualTo("widgets.kubeloop.dev in namespace watched");
        eventually().until(() -> manager.informers().get(0).watching());
    }

    @Test
    void anInformerThatStopsForGoodIsReportedAndBreaksItsControllers() {
        cluster.server().expect().get().withPath(LIST).andReturn(200, LISTED).once();
        cluster.server().expect().get().withPath(WATCH).andUpgradeToWebSocket().open().waitFor(50)
                .andEmit("this is not a watch event").done().once();
        managerWith(recordingObserver());
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class)
                .namespaces(List.of("watched")).build(), new RecordingReconciler());
        manager.start();

        eventually().until(() -> events.contains("informerFailed:widgets.kubeloop.dev in namespace watched"));
        InformerStatus informer = manager.informers().get(0);
        assertThat(informer.failed()).isTrue();
        assertThat(informer.failure()).contains("watch event");
        assertThat(controller.status().broken()).isTrue();
    }
}
