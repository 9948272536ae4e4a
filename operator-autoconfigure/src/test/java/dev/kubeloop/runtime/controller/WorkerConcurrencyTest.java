package dev.kubeloop.runtime.controller;

import static dev.kubeloop.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeloop.api.ObjectKey;
import dev.kubeloop.api.Result;
import dev.kubeloop.runtime.manager.ControllerManager;
import dev.kubeloop.testing.Eventually;
import dev.kubeloop.testing.MockClusterTestSupport;
import dev.kubeloop.testing.RecordingReconciler;
import dev.kubeloop.testing.RecordingReconciler.Call;
import dev.kubeloop.testing.Widget;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Workers: isolation between keys, exclusivity per key, thread names, MDC and draining on stop. */
class WorkerConcurrencyTest extends MockClusterTestSupport {

    private final CountDownLatch release = new CountDownLatch(1);

    @Override
    protected void beforeStop() {
        release.countDown();
    }

    @Test
    void withTwoWorkersASlowKeyDoesNotBlockOtherKeys() {
        AtomicBoolean slowFinished = new AtomicBoolean();
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            if (widget.getMetadata().getName().equals("slow")) {
                release.await(Eventually.DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
                slowFinished.set(true);
            }
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).workers(2).build(), reconciler);
        manager.start();

        client.resource(Widget.named("ns", "slow")).create();
        eventually().until(() -> reconciler.count("ns/slow") == 1);
        client.resource(Widget.named("ns", "fast-1")).create();
        client.resource(Widget.named("ns", "fast-2")).create();

        eventually().until(() -> reconciler.count("ns/fast-1") == 1 && reconciler.count("ns/fast-2") == 1);
        assertThat(slowFinished).as("the slow reconcile is still running").isFalse();
        release.countDown();
        eventually().untilTrue(slowFinished);
    }

    @Test
    void aKeyAddedWhileBeingReconciledRunsAgainAfterwardsNeverAlongside() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger mostInFlight = new AtomicInteger();
        CountDownLatch firstStarted = new CountDownLatch(1);
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                firstStarted.countDown();
                release.await(Eventually.DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
                return Result.done();
            } finally {
                inFlight.decrementAndGet();
            }
        });
        Controller<Widget> controller = manager.register(ControllerConfig.builder("widget", Widget.class).workers(4)
                .build(), reconciler);
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> firstStarted.getCount() == 0);

        // three changes while the first reconcile holds the key: three idle workers could take it
        for (int i = 0; i < 3; i++) {
            int size = i + 1;
            client.resources(Widget.class).inNamespace("ns").withName("a").edit(widget -> {
                widget.getSpec().setSize(size);
                return widget;
            });
        }
        // wait until the informer has seen the last change, not just the first (its handlers run right
        // after the cache update), so that all three are merged while the key is held
        eventually().until(() -> controller.queueStats().depth() == 1 && controller.primaryCache()
                .get(ObjectKey.of("ns", "a")).map(widget -> widget.getSpec().getSize()).orElse(0) == 3);
        release.countDown();

        eventually().until(() -> controller.queueStats().idle() && reconciler.calls().stream()
                .anyMatch(call -> call.widget().getSpec().getSize() == 3));
        assertThat(mostInFlight).hasValue(1);
        // the adds made while the key was held were merged into one run (or two, if the informer
        // delivered the last change only after that run had started)
        assertThat(reconciler.count("ns/a")).isBetween(2, 3);
    }

    @Test
    void reconcilesRunOnNamedWorkerThreadsWithControllerKeyAndReconcileIdInTheMdc() {
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) ->
                context.retryCount() == 0 ? Result.requeue() : Result.done());
        manager.register(ControllerConfig.builder("widget", Widget.class).workers(2).build(), reconciler);
        manager.start();
        client.resource(Widget.named("ns", "a")).create();

        eventually().until(() -> reconciler.count("ns/a") == 2);

        for (Call call : reconciler.callsFor("ns/a")) {
            assertThat(call.thread()).matches("kubeloop-widget-[12]");
            assertThat(call.mdc()).containsEntry("controller", "widget").containsEntry("key", "ns/a");
            assertThat(UUID.fromString(call.mdc().get("reconcileID"))).isNotNull();
        }
        assertThat(reconciler.callsFor("ns/a").get(0).mdc().get("reconcileID"))
                .isNotEqualTo(reconciler.callsFor("ns/a").get(1).mdc().get("reconcileID"));
    }

    @Test
    void stopWaitsForReconcilesInFlightThenStopsTheWorkers() {
        AtomicBoolean finished = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            started.countDown();
            // finishes on its own, shortly after stop began
            release.await(200, TimeUnit.MILLISECONDS);
            finished.set(true);
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> started.getCount() == 0);

        manager.stop();

        assertThat(finished).as("stop waited for the reconcile in flight").isTrue();
        eventually().until(() -> workerThreads() == 0); // threads end just after the pool reports it
    }

    @Test
    void stopInterruptsReconcilesStillRunningAfterTheShutdownTimeout() {
        manager = ControllerManager.builder(client).shutdownTimeout(Duration.ofMillis(100)).build();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        RecordingReconciler reconciler = new RecordingReconciler().behaving((widget, context) -> {
            started.countDown();
            try {
                release.await(Eventually.DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            return Result.done();
        });
        manager.register(ControllerConfig.builder("widget", Widget.class).build(), reconciler);
        manager.start();
        client.resource(Widget.named("ns", "a")).create();
        eventually().until(() -> started.getCount() == 0);

        manager.stop();

        assertThat(interrupted).isTrue();
        eventually().until(() -> workerThreads() == 0);
    }

    private static long workerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("kubeloop-widget-") && thread.isAlive()).count();
    }
}
